/**
 * Polymarket Gamma events/markets → VenueMarket. Pure. The YES side is the outcome labelled
 * "Yes" (or the first one); its ask is `bestAsk`, the NO ask is 1 - `bestBid` (one order book).
 * Volume (`volume24hr`) is already USD(C).
 */
import type { VenueMarket } from '../../model/index.js';
import { idField, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { figureField, textField } from '../quality/fields.js';
import { lifecycleFault } from '../quality/lifecycle.js';
import { splitByPriceUnit } from '../quality/units.js';
import { priceDisagreement, resolvedOutcome } from './outcome-prices.js';
import { GammaEvent, GammaMarket } from './schemas.js';

/**
 * How old a market's `updatedAt` may be when it is read (freshness, docs/sources.md). Gamma
 * rewrites its open markets' records continuously: in the recorded listings every open market,
 * from $32 to $36M of daily volume, was rewritten within a minute of the capture. An hour without
 * a rewrite is a frozen record, whose bestBid/bestAsk may no longer be the book's.
 */
export const GAMMA_MAX_RECORD_AGE_MS = 3_600_000;

/**
 * Grace after a market's `endDate` before it counts as closed: Gamma states the end as a calendar
 * date at 00:00 UTC (the recorded "by February 28" market ends 2026-02-28T00:00Z, its rules at
 * 11:59 PM ET that day), so a market is only past its close a day after it.
 */
const END_DATE_GRACE_MS = 86_400_000;

const live = (p: number | undefined): number | undefined => (p !== undefined && p > 0 && p < 1 ? p : undefined);
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The event page, plus the market slug when the event holds several markets. */
export function polymarketUrl(eventSlug: string, marketSlug?: string): string {
  return marketSlug && marketSlug !== eventSlug
    ? `https://polymarket.com/event/${eventSlug}/${marketSlug}`
    : `https://polymarket.com/event/${eventSlug}`;
}

/**
 * One validated Gamma market as a VenueMarket. A malformed volume, liquidity or description is
 * unknown and reported to `faults`; with `now`, a market past its end (a day's grace) or resolved
 * (outcome prices 0 and 1) while Gamma still lists it as trading is closed and reported, and one
 * whose record is older than {@link GAMMA_MAX_RECORD_AGE_MS} is withheld as stale.
 */
export function gammaToVenueMarket(
  m: GammaMarket,
  ev: { slug: string; title?: string; endDate?: string; marketCount: number },
  faults: Dropped[] = [],
  now?: Date,
): VenueMarket {
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
  const item = `${ev.slug}/${m.slug}`;
  const volume = figureField(m.volume24hr, item, 'volume24hr', faults);
  const liquidity =
    figureField(m.liquidityNum, item, 'liquidityNum', faults) ?? figureField(m.liquidity, item, 'liquidity', faults);
  const rules = textField(m.description, item, 'description', faults);
  const statusOpen = m.active !== false && m.closed !== true && m.archived !== true && m.acceptingOrders !== false;
  const resolved = resolvedOutcome(m);
  const ends = closes ? new Date(Date.parse(closes) + END_DATE_GRACE_MS).toISOString() : undefined;
  const closed = statusOpen ? lifecycleFault(item, 'open', ends, resolved, now) : undefined;
  if (closed) faults.push(closed);
  const stale =
    statusOpen && !closed && now && m.updatedAt && now.getTime() - Date.parse(m.updatedAt) > GAMMA_MAX_RECORD_AGE_MS;
  if (stale)
    faults.push({
      id: item,
      reason: `record last updated ${m.updatedAt}, more than ${GAMMA_MAX_RECORD_AGE_MS / 60_000} min before it was read: its prices are withheld`,
      class: 'stale',
    });
  return {
    venue: 'polymarket',
    id: m.slug,
    eventId: ev.slug,
    ...(m.conditionId ? { conditionId: m.conditionId } : {}),
    ...(tokens && tokens.length === 2
      ? {
          tokenIds: swapped
            ? { yes: tokens[1] as string, no: tokens[0] as string }
            : { yes: tokens[0] as string, no: tokens[1] as string },
        }
      : {}),
    title: m.question,
    question: m.question,
    ...(ev.title && ev.marketCount > 1 ? { eventTitle: ev.title } : {}),
    ...(m.groupItemTitle ? { outcomeLabel: m.groupItemTitle } : {}),
    ...(yesNo ? {} : { sides: [m.outcomes[0] as string, m.outcomes[1] as string] as [string, string] }),
    open: statusOpen && !closed && !stale,
    ...(yesBid !== undefined ? { yesBid } : {}),
    ...(yesAsk !== undefined ? { yesAsk } : {}),
    ...(noAsk !== undefined ? { noAsk } : {}),
    ...(yesBid !== undefined ? { yesBid } : {}),
    ...(noBid !== undefined ? { noBid } : {}),
    ...(last !== undefined ? { lastPrice: swapped ? round6(1 - last) : last } : {}),
    volume24hUsd: volume === null ? null : Math.round((volume ?? 0) * 100) / 100,
    // Gamma has no open interest; the Data API's /oi fills it in where configured, else unknown.
    openInterestUsd: null,
    liquidityUsd: liquidity == null ? null : Math.round(liquidity * 100) / 100,
    ...(closes ? { closesAt: new Date(closes).toISOString() } : {}),
    ...(m.updatedAt ? { updatedAt: new Date(m.updatedAt).toISOString() } : {}),
    url: polymarketUrl(ev.slug, ev.marketCount > 1 ? m.slug : undefined),
    ...(rules ? { rules } : {}),
  };
}

/**
 * Validates and normalizes Gamma events (with their nested markets), market by market; a market
 * whose outcome prices contradict its book is dropped (class `inconsistent`). `now` closes markets
 * past their end and withholds stale records (see {@link gammaToVenueMarket}).
 */
export function normalizeGammaEvents(
  raw: readonly unknown[],
  now?: Date,
): { markets: VenueMarket[]; dropped: Dropped[] } {
  const events = parseEach(raw, GammaEvent, idField('slug'));
  const markets: VenueMarket[] = [];
  const dropped = [...events.dropped];
  for (const ev of events.ok) {
    const parsed = parseEach(ev.markets, GammaMarket, idField('slug'));
    const inner = splitByPriceUnit(parsed.ok, ['bestBid', 'bestAsk', 'lastTradePrice'], (m) => `${ev.slug}/${m.slug}`);
    dropped.push(...parsed.dropped, ...inner.dropped);
    const info = {
      slug: ev.slug,
      ...(ev.title ? { title: ev.title } : {}),
      marketCount: ev.markets.length,
      ...(ev.endDate ? { endDate: ev.endDate } : {}),
    };
    for (const m of inner.ok) {
      const disagreement = priceDisagreement(m);
      if (disagreement) dropped.push({ id: `${ev.slug}/${m.slug}`, reason: disagreement, class: 'inconsistent' });
      else markets.push(gammaToVenueMarket(m, info, dropped, now));
    }
  }
  return { markets, dropped };
}
