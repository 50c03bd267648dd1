/**
 * Catalog + venue markets → EventsData. Pure. Each outcome gets one quote per referenced market
 * that is open and has a live ask on the needed side; an outcome with no quote is left out, and an
 * event with no outcome left is left out, each with a reason the caller logs.
 */
import type { EventsData, MarketEvent, Quote, VenueMarket } from '../../model/index.js';
import { kalshiMarketUrl } from '../kalshi-pages.js';
import { matchGuard } from './match-guard.js';
import type { CatalogEvent, EventCatalog, MarketRef } from './schema.js';

export interface Skipped {
  event: string;
  outcome?: string;
  ref?: string;
  reason: string;
}

/** Venue markets indexed the way catalog references name them. */
export interface MarketIndex {
  kalshi: ReadonlyMap<string, VenueMarket>;
  /** Keyed `${eventSlug}/${marketSlug}`. */
  polymarket: ReadonlyMap<string, VenueMarket>;
}

/** The index key of a reference. */
export function refId(r: MarketRef): string {
  return r.operator === 'kalshi' ? r.ticker : `${r.eventSlug}/${r.marketSlug}`;
}

/** Indexes normalized markets for {@link buildCatalogEvents}. */
export function indexMarkets(markets: readonly VenueMarket[]): MarketIndex {
  const kalshi = new Map<string, VenueMarket>();
  const polymarket = new Map<string, VenueMarket>();
  for (const m of markets) {
    if (m.venue === 'kalshi') kalshi.set(m.id, m);
    else polymarket.set(`${m.eventId}/${m.id}`, m);
  }
  return { kalshi, polymarket };
}

/** Whether our outcome is the venue's NO side: `invert`, or the named outcome listed second. */
export function onNoSide(r: MarketRef, m: VenueMarket): boolean | string {
  const label = r.operator === 'polymarket' ? r.outcome : undefined;
  if (!m.sides) return label === undefined ? r.invert : `reviewed outcome "${label}" but the market is Yes/No now`;
  if (label === undefined) return `named outcomes ${m.sides.join('/')} need a reviewed outcome label`;
  const i = m.sides.findIndex((s) => s.toLowerCase() === label.toLowerCase());
  if (i < 0) return `reviewed outcome "${label}" not among ${m.sides.join('/')}`;
  return (i === 1) !== r.invert;
}

function quoteFor(r: MarketRef, m: VenueMarket): Quote | string {
  if (!m.open) return 'market not open';
  const mismatch = matchGuard(r, m);
  if (mismatch) return mismatch;
  const no = onNoSide(r, m);
  if (typeof no === 'string') return no;
  // Our outcome's price is the venue's YES ask, or its NO ask where the venue asks the opposite.
  const price = no ? m.noAsk : m.yesAsk;
  if (price === undefined) return `no live ${no ? 'NO' : 'YES'} ask`;
  const bid = no ? m.noBid : m.yesBid;
  return {
    operatorId: r.operator,
    yesPrice: price,
    // A crossed or locked book (bid >= ask) gives no usable mid: the ask alone stands.
    ...(bid !== undefined && bid < price ? { yesBid: bid } : {}),
    // One market's trades serve both of its sides, so both outcomes show the market's volume.
    volume24hUsd: m.volume24hUsd,
    marketUrl: r.operator === 'kalshi' ? kalshiMarketUrl(m.eventId, r.page) : m.url,
    ...(m.updatedAt ? { updatedAt: m.updatedAt } : {}),
  };
}

/**
 * Whether exactly one of the event's outcomes resolves YES: the reviewer says so (`exclusive`), or
 * the outcomes are one market's Yes and No. Deadline ladders ("before April", "before August") are
 * nested, not exclusive, and stay false unless reviewed otherwise.
 */
export function exclusiveOutcomes(ev: CatalogEvent): boolean {
  if (ev.exclusive !== undefined) return ev.exclusive;
  const names = ev.outcomes.map((o) => o.name.toLowerCase()).sort();
  return names.length === 2 && names[0] === 'no' && names[1] === 'yes';
}

/** Builds the events snapshot data from the catalog and what the venues returned. */
export function buildCatalogEvents(
  catalog: EventCatalog,
  index: MarketIndex,
): { data: EventsData; skipped: Skipped[] } {
  const skipped: Skipped[] = [];
  const events: MarketEvent[] = [];
  for (const ev of catalog) {
    const outcomes: MarketEvent['outcomes'] = [];
    for (const o of ev.outcomes) {
      const quotes: Quote[] = [];
      for (const r of o.refs) {
        const m = r.operator === 'kalshi' ? index.kalshi.get(r.ticker) : index.polymarket.get(refId(r));
        const q = m ? quoteFor(r, m) : 'market not returned by the venue';
        if (typeof q === 'string')
          skipped.push({ event: ev.slug, outcome: o.name, ref: `${r.operator}:${refId(r)}`, reason: q });
        else quotes.push(q);
      }
      if (quotes.length > 0) outcomes.push({ name: o.name, quotes });
    }
    if (outcomes.length === 0) {
      skipped.push({ event: ev.slug, reason: 'no outcome has a live quote' });
      continue;
    }
    events.push({
      slug: ev.slug,
      question: ev.question,
      category: ev.category,
      closesAt: ev.closesAt,
      outcomes,
      exclusive: exclusiveOutcomes(ev),
      ...(ev.nested ? { nested: true } : {}),
    });
  }
  return { data: { events }, skipped };
}
