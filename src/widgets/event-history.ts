/**
 * GET /v1/widgets/event/history (docs/contract.md, Event history): how an event's outcomes moved,
 * from the worker's stored points (store/price-history.ts). Pure: points and the viewer's operators
 * in, payload out. As on the event widget, only operators allowed in the viewer's jurisdiction
 * appear, prices are after each venue's taker fee, and the aggregated probability is computed over
 * the operators shown (null at a point where none quotes the outcome).
 */
import { z } from 'zod';
import { afterFeePrice } from '../catalog/fee-schedules.js';
import { outcomeProbabilities, roundTo } from '../domain/aggregate.js';
import type { Category } from '../model/index.js';
import { IsoTime, Slug } from '../model/index.js';
import type { SeriesName, StoredPoint } from '../store/price-history.js';
import { ResolvedGeo } from './payload-schemas.js';

/** Each range: the series it reads and how far back. */
export const HISTORY_RANGES = {
  '1d': { series: '5m', seconds: 86_400, intervalSeconds: 300 },
  '7d': { series: '1h', seconds: 7 * 86_400, intervalSeconds: 3_600 },
  '30d': { series: '1h', seconds: 30 * 86_400, intervalSeconds: 3_600 },
} as const satisfies Record<string, { series: SeriesName; seconds: number; intervalSeconds: number }>;
export type HistoryRange = keyof typeof HISTORY_RANGES;

const Series = z.array(z.number().nullable());

export const EventHistoryPayload = z
  .object({
    widget_class: z.literal('event-history').describe('Always "event-history".'),
    event_slug: Slug.describe('The slug asked for.'),
    range: z.enum(['1d', '7d', '30d']).describe('The range asked for.'),
    interval_seconds: z
      .number()
      .int()
      .positive()
      .describe('The spacing of the points: 300 for 1d, 3600 for 7d and 30d (the last refresh in each interval).'),
    resolved_geo: ResolvedGeo,
    timestamps: z
      .array(IsoTime)
      .describe(
        'When each point was recorded (RFC 3339), oldest first; every series below has one value per timestamp.',
      ),
    outcomes: z
      .array(
        z.object({
          outcome_name: z.string().describe('The outcome.'),
          probability_pct: Series.describe(
            'Aggregated probability (0-100, one decimal) over the operators shown, per timestamp; null where none quoted it.',
          ),
          operators: z
            .array(
              z.object({
                operator_id: z.string().describe('Machine identifier of the operator.'),
                prices: Series.describe(
                  "The operator's YES ask after its taker fee, in dollars per $1 contract, per timestamp; null where it did not quote.",
                ),
              }),
            )
            .describe("Operators allowed in the viewer's jurisdiction that quoted the outcome in the range."),
        }),
      )
      .describe('Each outcome seen in the range, in the order first seen.'),
  })
  .describe("GET /v1/widgets/event/history: an event's aggregated probability and operator prices over time.");
export type EventHistoryPayload = z.infer<typeof EventHistoryPayload>;

export interface HistoryContext {
  slug: string;
  range: HistoryRange;
  category: Category | undefined;
  jurisdiction: string;
  /** The operator when it may be shown in the viewer's jurisdiction. */
  isShown(operatorId: string): boolean;
}

/** The payload from `points` (oldest first). */
export function buildEventHistory(points: readonly StoredPoint[], ctx: HistoryContext): EventHistoryPayload {
  const outcomes = new Map<string, { probability: Array<number | null>; prices: Map<string, Array<number | null>> }>();
  const seriesOf = (name: string) => {
    let s = outcomes.get(name);
    if (!s) outcomes.set(name, (s = { probability: [], prices: new Map() }));
    return s;
  };
  points.forEach((point, i) => {
    const shown = point.o.map(([name, quotes]) => ({
      name,
      quotes: quotes
        .filter(([id]) => ctx.isShown(id))
        .map(([operatorId, yesPrice, yesBid, volume24hUsd]) => ({
          operatorId,
          yesPrice,
          yesBid: yesBid ?? undefined,
          volume24hUsd,
        })),
    }));
    const priced = shown.filter((o) => o.quotes.length > 0);
    const probabilities =
      priced.length > 0
        ? outcomeProbabilities(
            priced.map((o) => o.quotes),
            point.x,
          )
        : [];
    const probabilityOf = new Map(priced.map((o, k) => [o.name, probabilities[k]!]));
    for (const o of shown) {
      const s = seriesOf(o.name);
      const p = probabilityOf.get(o.name);
      s.probability[i] = p === undefined ? null : roundTo(p * 100, 1);
      for (const q of o.quotes) {
        let prices = s.prices.get(q.operatorId);
        if (!prices) s.prices.set(q.operatorId, (prices = []));
        prices[i] = roundTo(afterFeePrice(q.operatorId, ctx.category, q.yesPrice), 4);
      }
    }
  });
  // Fill the gaps (an outcome or operator absent at some points) with null, one value per point.
  const full = (values: Array<number | null>) => Array.from({ length: points.length }, (_, i) => values[i] ?? null);
  return {
    widget_class: 'event-history',
    event_slug: ctx.slug,
    range: ctx.range,
    interval_seconds: HISTORY_RANGES[ctx.range].intervalSeconds,
    resolved_geo: ctx.jurisdiction.slice(0, 2),
    timestamps: points.map((p) => new Date(p.t * 1000).toISOString()),
    outcomes: [...outcomes]
      .filter(([, s]) => s.prices.size > 0)
      .map(([name, s]) => ({
        outcome_name: name,
        probability_pct: full(s.probability),
        operators: [...s.prices].map(([operator_id, prices]) => ({ operator_id, prices: full(prices) })),
      })),
  };
}
