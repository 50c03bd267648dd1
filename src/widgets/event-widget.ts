/** Event-specific widget (docs/contract.md): one event's outcomes, each with a pool of operator prices. */
import { volumeWeightedProbability, roundTo } from '../domain/aggregate.js';
import { lowestPriceLeaders } from '../domain/best-odds.js';
import { formatContractPrice, type DisplayFormat } from '../domain/contract-price.js';
import { formatMoneyCompact } from '../domain/money.js';
import type { MarketEvent } from '../model/index.js';
import type { WidgetContext } from './context.js';
import type { EventWidgetPayload } from './payload-schemas.js';

/**
 * Builds the event widget payload. `changedAt` is when the snapshot's data last changed.
 * Probabilities and best-odds flags are computed from exact prices, never from display strings.
 */
export function buildEventWidget(
  event: MarketEvent,
  changedAt: string,
  format: DisplayFormat,
  ctx: WidgetContext,
): EventWidgetPayload {
  return {
    widget_class: 'event-specific',
    event_slug: event.slug,
    event_question: event.question,
    last_verified_timestamp: changedAt,
    outcomes: event.outcomes.flatMap((outcome) => {
      const quotes = outcome.quotes.filter((q) => ctx.operatorById(q.operatorId));
      if (quotes.length === 0) return [];
      const best = lowestPriceLeaders(quotes.map((q) => ({ id: q.operatorId, price: q.yesPrice })));
      const depth = quotes.reduce((sum, q) => sum + q.volume24hUsd, 0);
      return [
        {
          outcome_name: outcome.name,
          aggregated_probability_pct: roundTo(volumeWeightedProbability(quotes) * 100, 1),
          market_depth_volume: formatMoneyCompact(depth, 'USD'),
          comparison_pool: quotes.map((q) => {
            const op = ctx.operatorById(q.operatorId)!;
            return {
              operator_id: op.id,
              operator_name: op.name,
              contract_price: formatContractPrice(q.yesPrice, format),
              contract_volume: formatMoneyCompact(q.volume24hUsd, 'USD'),
              is_best_odds: best.has(op.id),
              ...(op.promoCode ? { promo_applied: op.promoCode } : {}),
              deep_link: ctx.clickUrl({
                operatorId: op.id,
                widget: 'event-specific',
                placement: event.slug,
                destination: q.marketUrl,
                advertiserId: ctx.advertiserId,
                impressionId: ctx.impressionId,
                expiresAt: ctx.linkExpiresAt,
              }),
            };
          }),
        },
      ];
    }),
  };
}
