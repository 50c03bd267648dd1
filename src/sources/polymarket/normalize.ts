/**
 * Polymarket Gamma events/markets → VenueMarket. Pure. The YES side is the outcome labelled
 * "Yes" (or the first one); its ask is `bestAsk`, the NO ask is 1 - `bestBid` (one order book).
 * Volume (`volume24hr`) is already USD(C).
 */
import type { VenueMarket } from '../../model/index.js';
import { idField, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { splitByPriceUnit } from '../quality/units.js';
import { GammaEvent, GammaMarket } from './schemas.js';

const live = (p: number | undefined): number | undefined => (p !== undefined && p > 0 && p < 1 ? p : undefined);
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The event page, plus the market slug when the event holds several markets. */
export function polymarketUrl(eventSlug: string, marketSlug?: string): string {
  return marketSlug && marketSlug !== eventSlug
    ? `https://polymarket.com/event/${eventSlug}/${marketSlug}`
    : `https://polymarket.com/event/${eventSlug}`;
}

/** One validated Gamma market as a VenueMarket. */
export function gammaToVenueMarket(m: GammaMarket, ev: { slug: string; title?: string; endDate?: string; marketCount: number }): VenueMarket {
  // Outcomes are usually ["Yes","No"]; a market listing them the other way round is read by label.
  // Named outcomes (["Lakers","Celtics"]) keep their order and are mapped by the catalog's label.
  const labels = m.outcomes.map((o) => o.toLowerCase());
  const yesNo = labels.includes('yes') && labels.includes('no');
  const swapped = yesNo && labels[0] === 'no';
  const bid = live(m.bestBid ?? undefined);
  const ask = live(m.bestAsk ?? undefined);
  const yesAsk = swapped ? (bid !== undefined ? live(round6(1 - bid)) : undefined) : ask;
  const noAsk = swapped ? ask : bid !== undefined ? live(round6(1 - bid)) : undefined;
  // The bids mirror the asks: one book, so a YES bid is 1 - the NO ask.
  const yesBid = swapped ? (ask !== undefined ? live(round6(1 - ask)) : undefined) : bid;
  const noBid = swapped ? bid : ask !== undefined ? live(round6(1 - ask)) : undefined;
  const last = live(m.lastTradePrice ?? undefined);
  const tokens = m.positionIds ?? m.clobTokenIds;
  const closes = m.endDate ?? ev.endDate;
  return {
    venue: 'polymarket',
    id: m.slug,
    eventId: ev.slug,
    ...(m.conditionId ? { conditionId: m.conditionId } : {}),
    ...(tokens && tokens.length === 2
      ? { tokenIds: swapped ? { yes: tokens[1] as string, no: tokens[0] as string } : { yes: tokens[0] as string, no: tokens[1] as string } }
      : {}),
    title: m.question,
    question: m.question,
    ...(ev.title && ev.marketCount > 1 ? { eventTitle: ev.title } : {}),
    ...(m.groupItemTitle ? { outcomeLabel: m.groupItemTitle } : {}),
    ...(yesNo ? {} : { sides: [m.outcomes[0] as string, m.outcomes[1] as string] as [string, string] }),
    open: m.active !== false && m.closed !== true && m.archived !== true && m.acceptingOrders !== false,
    ...(yesBid !== undefined ? { yesBid } : {}),
    ...(yesAsk !== undefined ? { yesAsk } : {}),
    ...(noAsk !== undefined ? { noAsk } : {}),
    ...(yesBid !== undefined ? { yesBid } : {}),
    ...(noBid !== undefined ? { noBid } : {}),
    ...(last !== undefined ? { lastPrice: swapped ? round6(1 - last) : last } : {}),
    volume24hUsd: Math.round((m.volume24hr ?? 0) * 100) / 100,
    // Gamma has no open interest; the Data API's /oi fills it in where configured, else unknown.
    openInterestUsd: null,
    liquidityUsd: m.liquidityNum != null || m.liquidity != null ? Math.round((m.liquidityNum ?? m.liquidity ?? 0) * 100) / 100 : null,
    ...(closes ? { closesAt: new Date(closes).toISOString() } : {}),
    url: polymarketUrl(ev.slug, ev.marketCount > 1 ? m.slug : undefined),
    ...(m.description ? { rules: m.description } : {}),
  };
}

/** Validates and normalizes Gamma events (with their nested markets), market by market. */
export function normalizeGammaEvents(raw: readonly unknown[]): { markets: VenueMarket[]; dropped: Dropped[] } {
  const events = parseEach(raw, GammaEvent, idField('slug'));
  const markets: VenueMarket[] = [];
  const dropped = [...events.dropped];
  for (const ev of events.ok) {
    const parsed = parseEach(ev.markets, GammaMarket, idField('slug'));
    const inner = splitByPriceUnit(parsed.ok, ['bestBid', 'bestAsk', 'lastTradePrice'], (m) => `${ev.slug}/${m.slug}`);
    dropped.push(...parsed.dropped, ...inner.dropped);
    const info = { slug: ev.slug, ...(ev.title ? { title: ev.title } : {}), marketCount: ev.markets.length, ...(ev.endDate ? { endDate: ev.endDate } : {}) };
    for (const m of inner.ok) markets.push(gammaToVenueMarket(m, info));
  }
  return { markets, dropped };
}
