/** Event-specific widget (docs/contract.md): one event's outcomes, each with a pool of operator prices. */
import { outcomeProbabilities, roundTo, totalVolume } from '../domain/aggregate.js';
import { afterFeePrice } from '../catalog/fee-schedules.js';
import { operatorById as catalogOperator } from '../catalog/operators.js';
import { lowestPriceLeaders } from '../domain/best-odds.js';
import { displayedPrice, formatContractPrice } from '../domain/contract-price.js';
import { formatMoneyCompact } from '../domain/money.js';
import type { DisplayFormat, MarketEvent } from '../model/index.js';
import { localeForJurisdiction } from '../domain/locale.js';
import type { WidgetContext } from './context.js';
import { jurisdictionFields } from './disclosures.js';
import type { EventWidgetPayload } from './payload-schemas.js';

/**
 * Builds the event widget payload. `changedAt` is when the snapshot's data last changed.
 * Probabilities and best-odds flags are computed from exact prices, never from display strings.
 * Contract prices and best odds are after each venue's taker fee (the event's category selects
 * Polymarket's rate); probabilities use fee-free mids, normalised over all of the event's outcomes
 * when they are exclusive.
 */
export function buildEventWidget(
  event: MarketEvent,
  changedAt: string,
  format: DisplayFormat,
  ctx: WidgetContext,
): EventWidgetPayload {
  const allowed = event.outcomes.map((o) => o.quotes.filter((q) => ctx.operatorOn(q.operatorId, event.category)));
  // Aggregates come from the operators shown. Normalisation runs over all of the event's outcomes
  // that a catalog venue quotes: one that no operator here may show still takes its share
  // (estimated from every catalog venue), so hiding it never inflates the others; the outcomes
  // shown may then sum to less than 100.
  const basis = event.outcomes.map((o, i) =>
    allowed[i]!.length > 0 ? allowed[i]! : o.quotes.filter((q) => catalogOperator(q.operatorId)),
  );
  const priced = basis.flatMap((quotes, i) => (quotes.length > 0 ? [i] : []));
  const probabilities = outcomeProbabilities(
    priced.map((i) => basis[i]!),
    event.exclusive === true,
  );
  const probabilityOf = new Map(priced.map((i, k) => [i, probabilities[k]!]));
  const shown = event.outcomes
    .map((outcome, i) => ({ outcome, quotes: allowed[i]!, probability: probabilityOf.get(i)! }))
    .filter((o) => o.quotes.length > 0);
  const operatorIds = [...new Set(shown.flatMap((o) => o.quotes.map((q) => q.operatorId)))];
  return {
    widget_class: 'event-specific',
    ...jurisdictionFields(ctx, localeForJurisdiction(ctx.jurisdiction), operatorIds, event.category),
    event_slug: event.slug,
    event_question: event.question,
    last_verified_timestamp: changedAt,
    outcomes: shown.map(({ outcome, probability, quotes }) => {
      const afterFee = quotes.map((q) => afterFeePrice(q.operatorId, event.category, q.yesPrice));
      // Judged on the prices as shown in `format`: every operator showing the lowest is flagged.
      const best = lowestPriceLeaders(
        quotes.map((q, j) => ({ id: q.operatorId, price: displayedPrice(afterFee[j] as number, format) })),
      );
      const depth = totalVolume(quotes.map((q) => q.volume24hUsd));
      return {
        outcome_name: outcome.name,
        aggregated_probability_pct: roundTo(probability * 100, 1),
        market_depth_volume: depth === null ? null : formatMoneyCompact(depth, 'USD'),
        comparison_pool: quotes.map((q, j) => {
          const op = ctx.operatorOn(q.operatorId, event.category)!;
          const promoCode = ctx.offerFor(op.id)?.promoCode;
          return {
            operator_id: op.id,
            operator_name: op.name,
            contract_price: formatContractPrice(afterFee[j] as number, format),
            contract_volume: q.volume24hUsd === null ? null : formatMoneyCompact(q.volume24hUsd, 'USD'),
            is_best_odds: best.has(op.id),
            updated_at: q.updatedAt ?? null,
            ...(promoCode ? { promo_applied: promoCode } : {}),
            deep_link: ctx.clickUrl({
              operatorId: op.id,
              widget: 'event-specific',
              country: ctx.jurisdiction,
              placement: event.slug,
              destination: q.marketUrl,
              advertiserId: ctx.advertiserId,
              impressionId: ctx.impressionId,
              expiresAt: ctx.linkExpiresAt,
            }),
          };
        }),
      };
    }),
    impression_url: ctx.impressionUrl('event-specific', operatorIds),
  };
}
