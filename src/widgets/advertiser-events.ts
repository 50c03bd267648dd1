/** Advertiser endpoints (docs/contract.md): the active-event list and the operator A/B comparison. */
import { priceToCents } from '../domain/contract-price.js';
import { roundTo } from '../domain/aggregate.js';
import type { MarketEvent, Quote } from '../model/index.js';
import type { WidgetContext } from './context.js';
import type { EventListPayload, SpecificEventPayload } from './payload-schemas.js';

/** Slugs of events still open at `now`, in snapshot order. */
export function buildEventList(events: readonly MarketEvent[], now: Date): EventListPayload {
  const slugs = events.filter((e) => Date.parse(e.closesAt) > now.getTime()).map((e) => e.slug);
  return { message: `${slugs.length} active events`, data: { events: slugs } };
}

export interface ComparisonOptions {
  operatorA: string;
  operatorB: string;
  /** Most outcomes returned, highest combined 24-hour volume first; all when undefined. */
  limit?: number;
}

/**
 * Compares operator A and operator B on every outcome both list. Prices are decimal dollars per
 * $1 contract, spreadCents = |A - B| x 100, volumes are 24-hour USD. An outcome only one of them
 * lists is left out rather than given a fake price.
 */
export function buildSpecificEvent(
  event: MarketEvent,
  changedAt: string,
  opts: ComparisonOptions,
  ctx: Pick<WidgetContext, 'operatorById'>,
): SpecificEventPayload {
  const pairs: Array<{ name: string; a: Quote; b: Quote }> = [];
  for (const outcome of event.outcomes) {
    const a = outcome.quotes.find((q) => q.operatorId === opts.operatorA);
    const b = outcome.quotes.find((q) => q.operatorId === opts.operatorB);
    if (a && b) pairs.push({ name: outcome.name, a, b });
  }
  const ordered =
    opts.limit === undefined
      ? pairs
      : [...pairs]
          .sort((x, y) => y.a.volume24hUsd + y.b.volume24hUsd - (x.a.volume24hUsd + x.b.volume24hUsd))
          .slice(0, opts.limit);
  const nameOf = (id: string) => ctx.operatorById(id)?.name ?? id;
  return {
    message: ordered.length === pairs.length ? 'ok' : `ok: ${ordered.length} of ${pairs.length} outcomes`,
    data: {
      event: {
        slug: event.slug,
        title: event.question,
        category: event.category,
        closes_at: event.closesAt,
        last_verified_timestamp: changedAt,
      },
      operators: {
        operatorA: { id: opts.operatorA, name: nameOf(opts.operatorA) },
        operatorB: { id: opts.operatorB, name: nameOf(opts.operatorB) },
      },
      outcomes: ordered.map(({ name, a, b }) => ({
        name,
        operatorAPrice: a.yesPrice,
        operatorBPrice: b.yesPrice,
        // Rounded again: subtracting two float cent values brings the noise back.
        spreadCents: roundTo(Math.abs(priceToCents(a.yesPrice) - priceToCents(b.yesPrice)), 4),
        operatorAVolume24h: a.volume24hUsd,
        operatorBVolume24h: b.volume24hUsd,
        operatorAMarketUrl: a.marketUrl,
        operatorBMarketUrl: b.marketUrl,
      })),
    },
  };
}
