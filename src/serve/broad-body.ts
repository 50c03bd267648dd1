/**
 * The broad widget's body for a viewer's country, locale and currency. The key holds all three, plus
 * limit, advertiser and the versions of the FX rates and ranking signals the body was built from.
 */
import { usdRate } from '../domain/fx.js';
import type { CurrencyCode, Locale } from '../model/index.js';
import { dataUnavailable } from '../model/problem.js';
import type { Snapshot, SnapshotKind } from '../store/schemas.js';
import type { RankingSignals } from '../tracking/ranking-inputs.js';
import { buildBroadWidget } from '../widgets/broad-widget.js';
import type { ServeContext } from './context.js';
import type { Built, CachedBody } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import { requireSnapshot } from './snapshot-lookup.js';
import { VariantKeys } from './variant-keys.js';
import { viewerCurrency } from './viewer.js';
import { BODY_TTL_MS, widgetContext } from './widget-context.js';

/**
 * Rates (undefined for USD), signals, country, locale, advertiser, currency, limit. The parts every
 * request shares come first: the key walk's first levels stay in the CPU's cache and only its last
 * ones are particular to a variant (rates and signals last made two cold one-entry maps per lookup).
 */
type BroadParts = [
  fx: Snapshot<'fx'> | undefined,
  signals: RankingSignals,
  country: string,
  locale: Locale,
  advertiserId: string | undefined,
  currency: CurrencyCode,
  limit: number,
];

/** The body for a viewer; `requested` is the currency asked for, if any (viewer.ts decides the rest). */
export type BroadBodies = (
  country: string,
  locale: Locale,
  requested: CurrencyCode | undefined,
  limit: number,
  advertiserId: string | undefined,
) => Representation;

/**
 * @returns a function that throws Problem 503 before the first metrics snapshot, and for an
 * asked-for currency whose rate is not loaded.
 */
export function broadBodies(ctx: ServeContext): BroadBodies {
  const keys = new VariantKeys<CachedBody>(
    (p) =>
      `broad|${p[2]}|${p[3]}|${p[5]}|${p[6]}|${p[4] ?? ''}|${(p[0] as Snapshot<'fx'> | undefined)?.version ?? 0}|${(p[1] as RankingSignals).version}`,
  );
  const build = ([fx, signals, country, locale, advertiserId, currency, limit]: BroadParts, nowMs: number): Built => {
    const metrics = requireSnapshot(ctx.snapshots, 'metrics', 'all');
    // Converted amounts change with the rates too.
    const changedAt = fx && fx.changedAt > metrics.changedAt ? fx.changedAt : metrics.changedAt;
    const { payload } = buildBroadWidget(
      {
        metrics: metrics.data,
        changedAt,
        locale,
        currency,
        rate: usdRate(currency, fx?.data)!,
        limit,
        signals: signals.byOperator,
        ctrPrior: { mean: signals.ctrMean, weight: ctx.config.ranking.ctrPriorImpressions },
        weights: ctx.config.ranking.weights,
      },
      widgetContext(
        ctx.config,
        new Date(nowMs),
        advertiserId,
        `broad|${metrics.version}|${fx?.version ?? 0}|${signals.version}`,
        country,
      ),
    );
    // Amounts converted at stale rates are stale too, and metrics derived from stale events or
    // sportsbook data (metrics=derived refreshes from their last accepted fetches) are as old as those.
    const inputs: SnapshotKind[] = [
      ...(fx ? ['fx' as const] : []),
      ...(ctx.config.sources.metrics === 'derived' ? (['events', 'sportsbook'] as const) : []),
    ];
    return { payload, changedAt, expiresAt: nowMs + BODY_TTL_MS, inputs };
  };
  return (country, locale, requested, limit, advertiserId) => {
    requireSnapshot(ctx.snapshots, 'metrics', 'all');
    const fxSnap = ctx.snapshots.get('fx', 'daily');
    const currency = viewerCurrency(requested, country, fxSnap?.data);
    const fx = currency === 'USD' ? undefined : fxSnap;
    if (usdRate(currency, fx?.data) === undefined)
      throw dataUnavailable(`No ${currency} reference rate has been loaded yet; try again shortly or ask for USD.`);
    const parts: BroadParts = [fx, ctx.ranking.current(), country, locale, advertiserId, currency, limit];
    return ctx.payloads.getOrBuild('metrics', keys.of(parts), ctx.now(), build, parts);
  };
}
