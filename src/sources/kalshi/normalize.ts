/**
 * Kalshi markets → VenueMarket. Pure: upstream JSON in, our model out. Each market is validated
 * on its own; a malformed one is dropped and reported, the others kept.
 */
import type { VenueMarket } from '../../model/index.js';
import { idField, num, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { splitByPriceUnit } from '../quality/units.js';
import { DOLLAR_PRICES, KalshiEvent, KalshiMarket } from './schemas.js';
import { kalshiMarketUrl } from '../../catalog/kalshi-pages.js';

/** A live price strictly between 0 and 1 (0 and 1 mean "no order on that side"). */
const live = (p: number | undefined): number | undefined => (p !== undefined && p > 0 && p < 1 ? p : undefined);

/**
 * One validated Kalshi market as a VenueMarket.
 * - YES ask from `yes_ask_dollars`; when that side is empty, 1 - best NO bid (the same order book).
 * - Volume counts contracts ($1 notional); USD = contracts x the last traded price (or the mid
 *   when nothing traded yet).
 */
export function kalshiToVenueMarket(m: KalshiMarket, opts: { page?: string; series?: string; eventTitle?: string } = {}): VenueMarket {
  const yesBid = live(num(m.yes_bid_dollars));
  const noBid = live(num(m.no_bid_dollars));
  const yesAsk = live(num(m.yes_ask_dollars)) ?? (noBid !== undefined ? live(round6(1 - noBid)) : undefined);
  const noAsk = live(num(m.no_ask_dollars)) ?? (yesBid !== undefined ? live(round6(1 - yesBid)) : undefined);
  const last = live(num(m.last_price_dollars));
  const mid = yesBid !== undefined && yesAsk !== undefined ? (yesBid + yesAsk) / 2 : yesAsk;
  const traded = last ?? mid ?? 0;
  const contracts24h = num(m.volume_24h_fp) ?? 0;
  const oiContracts = num(m.open_interest_fp);
  const open = m.status === 'active' || m.status === 'open';
  // `title` is deprecated: the event title and the YES label say the same thing.
  const title = m.title ?? ([opts.eventTitle, m.yes_sub_title].filter(Boolean).join(': ') || m.ticker);
  return {
    venue: 'kalshi',
    id: m.ticker,
    eventId: m.event_ticker,
    title,
    ...(m.title ? { question: m.title } : {}),
    ...(opts.eventTitle ? { eventTitle: opts.eventTitle } : {}),
    ...(m.yes_sub_title ? { outcomeLabel: m.yes_sub_title } : {}),
    open,
    ...(yesAsk !== undefined ? { yesAsk } : {}),
    ...(noAsk !== undefined ? { noAsk } : {}),
    ...(yesBid !== undefined ? { yesBid } : {}),
    ...(noBid !== undefined ? { noBid } : {}),
    ...(last !== undefined ? { lastPrice: last } : {}),
    volume24hUsd: round2(contracts24h * traded),
    volume24hContracts: contracts24h,
    openInterestUsd: oiContracts === undefined ? null : round2(oiContracts * traded),
    // Kalshi documents liquidity_dollars as always "0.0000": no figure, so unknown rather than 0.
    liquidityUsd: null,
    closesAt: new Date(m.close_time).toISOString(),
    url: kalshiMarketUrl(m.event_ticker, opts.page, opts.series),
    ...(m.rules_primary || m.rules_secondary ? { rules: [m.rules_primary, m.rules_secondary].filter(Boolean).join('\n') } : {}),
  };
}

/** Validates `raw` markets one by one, then drops those whose prices left the dollar unit. */
function parseMarkets(raw: readonly unknown[]): { ok: KalshiMarket[]; dropped: Dropped[] } {
  const parsed = parseEach(raw, KalshiMarket, idField('ticker'));
  const units = splitByPriceUnit(parsed.ok, DOLLAR_PRICES, (m) => m.ticker);
  return { ok: units.ok, dropped: [...parsed.dropped, ...units.dropped] };
}

/** Validates and normalizes a `GET /markets` list. */
export function normalizeKalshiMarkets(raw: readonly unknown[]): { markets: VenueMarket[]; dropped: Dropped[] } {
  const { ok, dropped } = parseMarkets(raw);
  return { markets: ok.map((m) => kalshiToVenueMarket(m)), dropped };
}

/** Validates and normalizes a `GET /events?with_nested_markets=true` list (the matcher's input). */
export function normalizeKalshiEvents(raw: readonly unknown[]): { markets: VenueMarket[]; dropped: Dropped[] } {
  const events = parseEach(raw, KalshiEvent, idField('event_ticker'));
  const markets: VenueMarket[] = [];
  const dropped = [...events.dropped];
  for (const ev of events.ok) {
    const inner = parseMarkets(ev.markets ?? []);
    dropped.push(...inner.dropped);
    for (const m of inner.ok) markets.push(kalshiToVenueMarket(m, { series: ev.series_ticker, ...(ev.title ? { eventTitle: ev.title } : {}) }));
  }
  return { markets, dropped };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
// Float noise from 1 - 0.56 (0.43999999999999995) must not reach a price.
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
