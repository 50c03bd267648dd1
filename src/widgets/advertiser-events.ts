/** Advertiser endpoints (docs/contract.md): the active-event list and the operator A/B comparison. */
import { priceToCents } from '../domain/contract-price.js';
import { roundTo } from '../domain/aggregate.js';
import { afterFeePrice } from '../catalog/fee-schedules.js';
import { operatorById } from '../catalog/operators.js';
import type { ShownOperators } from '../catalog/shown-operators.js';
import type { MarketEvent, Quote } from '../model/index.js';
import type { EventListPayload, SpecificEventPayload } from './payload-schemas.js';

/** The outcomes of `event` that both operators quote, in snapshot order, with both quotes. */
function sharedOutcomes(
  event: MarketEvent,
  operatorA: string,
  operatorB: string,
): Array<{ name: string; a: Quote; b: Quote }> {
  const pairs: Array<{ name: string; a: Quote; b: Quote }> = [];
  for (const outcome of event.outcomes) {
    const a = outcome.quotes.find((q) => q.operatorId === operatorA);
    const b = outcome.quotes.find((q) => q.operatorId === operatorB);
    if (a && b) pairs.push({ name: outcome.name, a, b });
  }
  return pairs;
}

/**
 * Slugs of events still open at `now` whose A/B comparison has at least one outcome (both
 * operators quote it), in snapshot order: every slug listed answers a non-empty comparison from
 * the same snapshot.
 */
export function buildEventList(
  events: readonly MarketEvent[],
  now: Date,
  pair: Pick<ComparisonOptions, 'operatorA' | 'operatorB'>,
): EventListPayload {
  const slugs = events
    .filter(
      (e) => Date.parse(e.closesAt) > now.getTime() && sharedOutcomes(e, pair.operatorA, pair.operatorB).length > 0,
    )
    .map((e) => e.slug);
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
 * $1 contract after each venue's taker fee (the two sit side by side, so they compare what a buyer
 * pays: docs/design.md, exchange figures after fees), spreadCents = |A - B| x 100 of those, volumes are
 * 24-hour USD. An outcome only one of them lists is left out rather than given a fake price.
 * The comparison itself is data for the advertiser; `allowed_in_geo` says whether each operator
 * may be shown for the event's category to a viewer in the jurisdiction of `viewer`.
 */
export function buildSpecificEvent(
  event: MarketEvent,
  changedAt: string,
  opts: ComparisonOptions,
  viewer: Pick<ShownOperators, 'country' | 'region' | 'operatorOn'>,
): SpecificEventPayload {
  const pairs = sharedOutcomes(event, opts.operatorA, opts.operatorB);
  const ordered =
    opts.limit === undefined
      ? pairs
      : [...pairs]
          // An unknown volume (null) counts as none here: it orders, it is not shown as 0.
          .sort(
            (x, y) =>
              (y.a.volume24hUsd ?? 0) + (y.b.volume24hUsd ?? 0) - ((x.a.volume24hUsd ?? 0) + (x.b.volume24hUsd ?? 0)),
          )
          .slice(0, opts.limit);
  const nameOf = (id: string) => operatorById(id)?.name ?? id;
  const allowed = (id: string) => viewer.operatorOn(id, event.category) !== undefined;
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
      resolved_geo: viewer.country,
      resolved_region: viewer.region,
      operators: {
        operatorA: { id: opts.operatorA, name: nameOf(opts.operatorA), allowed_in_geo: allowed(opts.operatorA) },
        operatorB: { id: opts.operatorB, name: nameOf(opts.operatorB), allowed_in_geo: allowed(opts.operatorB) },
      },
      outcomes: ordered.map(({ name, a, b }) => {
        const priceA = afterFeePrice(a.operatorId, event.category, a.yesPrice);
        const priceB = afterFeePrice(b.operatorId, event.category, b.yesPrice);
        return {
          name,
          operatorAPrice: priceA,
          operatorBPrice: priceB,
          // Rounded again: subtracting two float cent values brings the noise back.
          spreadCents: roundTo(Math.abs(priceToCents(priceA) - priceToCents(priceB)), 4),
          operatorAVolume24h: a.volume24hUsd,
          operatorBVolume24h: b.volume24hUsd,
          operatorAMarketUrl: a.marketUrl,
          operatorBMarketUrl: b.marketUrl,
        };
      }),
    },
  };
}
