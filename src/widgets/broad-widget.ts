/**
 * Broad widget (docs/contract.md): the operators allowed in the visitor's country, ranked by the blended
 * score (domain/ranking.ts), with localized promos, money in the requested currency and signed
 * click links. Pure: snapshot, signals, country, locale, currency and rate are all passed in.
 */
import { operatorById as catalogOperator } from '../catalog/operators.js';
import { NEUTRAL_CTA } from '../catalog/promotion-policy.js';
import { convertUsd } from '../domain/fx.js';
import { formatMoneyCompact } from '../domain/money.js';
import { rankOperators, type RankWeights } from '../domain/ranking.js';
import { Category, type CurrencyCode, type Locale, type MetricsData } from '../model/index.js';
import type { OperatorSignals } from '../tracking/ranking-inputs.js';
import type { WidgetContext } from './context.js';
import { jurisdictionFields } from './disclosures.js';
import type { BroadWidgetPayload } from './payload-schemas.js';

// -------------------------------------------------------------- builder

/** Display labels of the categories (trending_summary.highest_volume_category). */
export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  politics: 'Politics',
  economics: 'Economics',
  crypto: 'Crypto',
  sports: 'Sports',
  culture: 'Culture',
};

export interface BroadWidgetInput {
  metrics: MetricsData;
  /** When the data last changed (the payload timestamp). */
  changedAt: string;
  locale: Locale;
  currency: CurrencyCode;
  /** Units of `currency` per USD. */
  rate: number;
  limit: number;
  signals: ReadonlyMap<string, OperatorSignals>;
  ctrPrior: { mean: number; weight: number };
  weights: RankWeights;
}

export interface BroadWidgetResult {
  payload: BroadWidgetPayload;
  /** The operators shown, in rank order (they each get an impression when the payload is served). */
  operatorIds: string[];
}

/**
 * trending_summary is market-wide: global volume and the leading category sum every catalog
 * operator in the snapshot, whatever the visitor's country (it names no operator).
 */
function trendingSummary(metrics: MetricsData, known: (id: string) => boolean, toMoney: (usd: number) => string) {
  let total = 0;
  const byCategory = new Map<Category, number>();
  for (const m of metrics.operators) {
    if (!known(m.operatorId)) continue;
    total += m.volume24hUsd;
    for (const [c, v] of Object.entries(m.volumeByCategoryUsd) as Array<[Category, number]>)
      byCategory.set(c, (byCategory.get(c) ?? 0) + v);
  }
  // Ties go to the first category in schema order; no volume at all names none.
  let top: Category | undefined;
  for (const c of Category.options)
    if ((byCategory.get(c) ?? 0) > (top === undefined ? 0 : byCategory.get(top)!)) top = c;
  return { global_24h_volume: toMoney(total), highest_volume_category: top ? CATEGORY_LABELS[top] : '' };
}

/**
 * Builds the broad widget payload for one locale, currency and limit, for the country of `ctx`
 * (which lists only the operators allowed there, with that country's offers).
 */
export function buildBroadWidget(input: BroadWidgetInput, ctx: WidgetContext): BroadWidgetResult {
  const toMoney = (usd: number) => formatMoneyCompact(convertUsd(usd, input.rate), input.currency);
  const known = (id: string) => catalogOperator(id) !== undefined;
  const candidates = input.metrics.operators.filter((m) => ctx.operatorOn(m.operatorId, 'all') !== undefined);
  const byId = new Map(candidates.map((m) => [m.operatorId, m]));
  const ranked = rankOperators(
    candidates.map((m) => {
      const s = input.signals.get(m.operatorId);
      return {
        operatorId: m.operatorId,
        volume24hUsd: m.volume24hUsd,
        oiAcceleration: s?.oiAcceleration ?? null,
        clicks: s?.clicks ?? 0,
        impressions: s?.impressions ?? 0,
      };
    }),
    input.weights,
    input.ctrPrior,
  ).slice(0, input.limit);

  const operators = ranked.map((r) => {
    const op = ctx.operatorOn(r.operatorId, 'all')!;
    const m = byId.get(r.operatorId)!;
    const offer = ctx.offerFor(op.id);
    const copy = offer && (offer.copy[input.locale] ?? offer.copy.en);
    return {
      rank: r.rank,
      operator_name: op.name,
      rating: `${op.rating.toFixed(1)}/5`,
      metrics: {
        volume_24h: toMoney(m.volume24hUsd),
        avg_value_per_event: toMoney(m.activeEvents > 0 ? m.volume24hUsd / m.activeEvents : 0),
        // null: a sportsbook has no order book, so no liquidity to show; or no source reports the
        // operator's (unknown is not zero).
        total_liquidity: op.kind === 'sportsbook' || m.liquidityUsd === null ? null : toMoney(m.liquidityUsd),
      },
      incentives: {
        promo_text: copy?.promoText ?? '',
        promo_code: offer?.promoCode ?? '',
        cta_label: copy?.ctaLabel ?? NEUTRAL_CTA[input.locale],
        // Significant terms travel with the offer (in its language, else English).
        promo_terms: (copy?.terms ?? offer?.copy.en.terms) || '',
        promo_terms_url: offer?.termsUrl ?? '',
      },
      routing: {
        web_url: ctx.clickUrl({
          operatorId: op.id,
          widget: 'broad',
          placement: `rank-${r.rank}`,
          country: ctx.jurisdiction,
          advertiserId: ctx.advertiserId,
          impressionId: ctx.impressionId,
          expiresAt: ctx.linkExpiresAt,
        }),
        app_store_available: [...op.appStores],
      },
    };
  });

  const operatorIds = ranked.map((r) => r.operatorId);
  return {
    payload: {
      widget_class: 'broad',
      ...jurisdictionFields(ctx, input.locale, operatorIds, 'all'),
      timestamp: input.changedAt,
      trending_summary: trendingSummary(input.metrics, known, toMoney),
      operators,
      impression_url: ctx.impressionUrl('broad', operatorIds),
    },
    operatorIds,
  };
}
