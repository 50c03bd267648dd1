/**
 * GET /v1/widgets/broad (and /advertiser/v1/widgets/broad): docs/contract.md. The body depends on the
 * visitor's country, locale and currency, so:
 * - the in-process cache key holds all three (plus limit, advertiser and the versions of the FX
 *   rates and ranking signals the body was built from);
 * - responses vary on Accept-Language; a shared cache may keep them when the country came from a
 *   trusted CDN's geo headers, else they are private (http/cache-policy.ts).
 */
import { z } from 'zod';
import { currencyForCountry, usdRate } from '../../domain/fx.js';
import { localeForJurisdiction, negotiateLocale } from '../../domain/locale.js';
import type { Locale } from '../../catalog/operator-schema.js';
import { LRUCache } from 'lru-cache';
import { CURRENCIES, type CurrencyCode } from '../../domain/money.js';
import { buildBroadWidget } from '../../widgets/broad-widget.js';
import type { Deps } from '../deps.js';
import { AdvertiserIdParam, enumParam, GeoParams, intParam, RefreshParam } from '../params.js';
import { dataUnavailable } from '../../problem.js';
import { parseQuery } from '../query.js';
import { shapeFor, widgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import { requireSnapshot } from '../../serve/snapshot-lookup.js';
import type { Handler } from '../../transport/types.js';
import { viewerGeo } from '../../serve/viewer.js';
import { BODY_TTL_MS, widgetContext } from '../../serve/widget-context.js';
import type { Attribution } from './widgets.js';
import type { Snapshot, SnapshotKind } from '../../store/schemas.js';
import type { RankingSignals } from '../../tracking/ranking-inputs.js';
import { VariantKeys } from '../../serve/variant-keys.js';

export const BroadWidgetQuery = z.object({
  limit: intParam(1, 50).meta({ description: 'At most this many operators. Default: 10.' }).optional(),
  ...GeoParams,
  currency: enumParam(Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]])
    .meta({ description: "Currency of the money strings. Default: the viewer's country's when its rate is loaded, else USD." })
    .optional(),
  advertiser_id: AdvertiserIdParam,
  refresh: RefreshParam,
});

export const BROAD_DEFAULT_LIMIT = 10;

// Browsers send a handful of distinct Accept-Language values: negotiate each once ('' for none).
const negotiated = new LRUCache<string, Locale | ''>({ max: 1_000 });
const languageOf = (acceptLanguage: string | undefined): Locale | '' => {
  if (!acceptLanguage) return '';
  let locale = negotiated.get(acceptLanguage);
  if (locale === undefined) negotiated.set(acceptLanguage, (locale = negotiateLocale(acceptLanguage) ?? ''));
  return locale;
};

/** The broad widget route; `authenticated` selects the advertiser variant's cache policy. */
export function broadWidgetRoute(deps: Deps, authenticated: boolean, attribution: Attribution): Handler {
  const shapes = widgetShapes({
    authenticated,
    cdn: deps.config.cdnGeo,
    refreshSeconds: deps.config.refreshSeconds.metrics,
    browserMaxAge: deps.config.widgetMaxAgeSeconds,
    vary: ['Accept-Language', 'X-Advertiser-Id'],
  });
  // Parts: country, locale, currency, limit, advertiser, rates (undefined for USD), signals.
  const keys = new VariantKeys(
    (p) => `broad|${p[0]}|${p[1]}|${p[2]}|${p[3]}|${p[4] ?? ''}|${(p[5] as Snapshot<'fx'> | undefined)?.version ?? 0}|${(p[6] as RankingSignals).version}`,
  );
  return (req) => {
    const q = parseQuery(BroadWidgetQuery, req.query);
    const advertiserId = attribution(req, q.advertiser_id);
    const geo = viewerGeo(deps.geo, req, q.fallback_geo, authenticated, q.geo);
    const country = geo.jurisdiction;
    // Accept-Language when it names a catalog locale, else the country's (domain/locale.ts).
    const locale = languageOf(req.headers['accept-language']) || localeForJurisdiction(country);
    const requested = q.currency;
    const limit = q.limit ?? BROAD_DEFAULT_LIMIT;
    const metrics = requireSnapshot(deps.snapshots, 'metrics', 'all');
    const fxSnap = deps.snapshots.get('fx', 'daily');
    // The country's currency is a nicety: without its rate, fall back to USD. An asked-for one is owed.
    let currency: CurrencyCode = requested ?? currencyForCountry(country.length === 2 ? country : country.slice(0, 2));
    if (!requested && currency !== 'USD' && usdRate(currency, fxSnap?.data) === undefined) currency = 'USD';
    const fx = currency === 'USD' ? undefined : fxSnap;
    const rate = usdRate(currency, fx?.data);
    if (rate === undefined) throw dataUnavailable(`No ${currency} reference rate has been loaded yet; try again shortly or ask for USD.`);
    const signals = deps.ranking.current();
    const nowMs = deps.now();
    const key = keys.of([country, locale, currency, limit, advertiserId, fx, signals]);
    let entry = deps.payloads.get('metrics', key, nowMs);
    if (!entry) {
      // Converted amounts change with the rates too.
      const changedAt = fx && fx.changedAt > metrics.changedAt ? fx.changedAt : metrics.changedAt;
      const { payload, operatorIds } = buildBroadWidget(
        {
          metrics: metrics.data,
          changedAt,
          locale,
          currency,
          rate,
          limit,
          signals: signals.byOperator,
          ctrPrior: { mean: signals.ctrMean, weight: deps.config.ranking.ctrPriorImpressions },
          weights: deps.config.ranking.weights,
        },
        widgetContext(deps.config, new Date(nowMs), advertiserId, `broad|${metrics.version}|${fx?.version ?? 0}|${signals.version}`, country),
      );
      // Amounts converted at stale rates are stale too, and metrics derived from stale events or
      // sportsbook data (metrics=derived refreshes from their last accepted fetches) are as old as those.
      const inputs: SnapshotKind[] = [...(fx ? ['fx' as const] : []), ...(deps.config.sources.metrics === 'derived' ? (['events', 'sportsbook'] as const) : [])];
      entry = deps.payloads.put('metrics', key, payload, changedAt, nowMs + BODY_TTL_MS, undefined, inputs);
    }
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}
