/**
 * Kalshi markets → VenueMarket. Pure: upstream JSON in, our model out. Each market is validated
 * on its own; a malformed one is dropped and reported, the others kept.
 */
import type { VenueMarket } from '../../model/index.js';
import { idField, num, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { figureField, textField } from '../quality/fields.js';
import { lifecycleFault } from '../quality/lifecycle.js';
import { splitByPriceUnit } from '../quality/units.js';
import { DOLLAR_PRICES, KalshiEvent, KalshiMarket } from './schemas.js';
import { kalshiMarketUrl } from '../../catalog/kalshi-pages.js';

/** A live price strictly between 0 and 1 (0 and 1 mean "no order on that side"). */
const live = (p: number | undefined): number | undefined => (p !== undefined && p > 0 && p < 1 ? p : undefined);

/**
 * One validated Kalshi market as a VenueMarket.
 * - YES ask from `yes_ask_dollars`; when that side is empty, 1 - best NO bid (the same order book).
 * - Volume counts contracts ($1 notional); USD = contracts x the last traded price (or the mid
 *   when nothing traded yet). A malformed volume or open interest is unknown (null), and reported
 *   to `faults` with a malformed rules text; the prices stand.
 * - Open only while its status says so, its close time is ahead of `now` and it has no result: a
 *   status still "active" past the close or with a result is reported to `faults` (lifecycle).
 */
export function kalshiToVenueMarket(
  m: KalshiMarket,
  opts: { page?: string; series?: string; eventTitle?: string; now?: Date } = {},
  faults: Dropped[] = [],
): VenueMarket {
  const yesBid = live(num(m.yes_bid_dollars));
  const noBid = live(num(m.no_bid_dollars));
  const yesAsk = live(num(m.yes_ask_dollars)) ?? (noBid !== undefined ? live(round6(1 - noBid)) : undefined);
  const noAsk = live(num(m.no_ask_dollars)) ?? (yesBid !== undefined ? live(round6(1 - yesBid)) : undefined);
  const last = live(num(m.last_price_dollars));
  const mid = yesBid !== undefined && yesAsk !== undefined ? (yesBid + yesAsk) / 2 : yesAsk;
  const traded = last ?? mid ?? 0;
  const contracts24h = figureField(m.volume_24h_fp, m.ticker, 'volume_24h_fp', faults);
  const oiContracts = figureField(m.open_interest_fp, m.ticker, 'open_interest_fp', faults);
  const rules = [
    textField(m.rules_primary, m.ticker, 'rules_primary', faults),
    textField(m.rules_secondary, m.ticker, 'rules_secondary', faults),
  ].filter(Boolean);
  const statusOpen = m.status === 'active' || m.status === 'open';
  const closed = statusOpen
    ? lifecycleFault(m.ticker, m.status, m.close_time, m.result ?? undefined, opts.now)
    : undefined;
  if (closed) faults.push(closed);
  const open = statusOpen && !closed;
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
    volume24hUsd: contracts24h === null ? null : round2((contracts24h ?? 0) * traded),
    ...(typeof contracts24h === 'number' ? { volume24hContracts: contracts24h } : {}),
    openInterestUsd: oiContracts == null ? null : round2(oiContracts * traded),
    // Kalshi documents liquidity_dollars as always "0.0000": no figure, so unknown rather than 0.
    liquidityUsd: null,
    closesAt: new Date(m.close_time).toISOString(),
    url: kalshiMarketUrl(m.event_ticker, opts.page, opts.series),
    ...(rules.length > 0 ? { rules: rules.join('\n') } : {}),
  };
}

/** Validates `raw` markets one by one, then drops those whose prices left the dollar unit. */
function parseMarkets(raw: readonly unknown[]): { ok: KalshiMarket[]; dropped: Dropped[] } {
  const parsed = parseEach(raw, KalshiMarket, idField('ticker'));
  const units = splitByPriceUnit(parsed.ok, DOLLAR_PRICES, (m) => m.ticker);
  return { ok: units.ok, dropped: [...parsed.dropped, ...units.dropped] };
}

/** Validates and normalizes a `GET /markets` list; `now` closes markets past their close time. */
export function normalizeKalshiMarkets(
  raw: readonly unknown[],
  now?: Date,
): { markets: VenueMarket[]; dropped: Dropped[] } {
  const { ok, dropped } = parseMarkets(raw);
  return { markets: ok.map((m) => kalshiToVenueMarket(m, now ? { now } : {}, dropped)), dropped };
}

/** Validates and normalizes a `GET /events?with_nested_markets=true` list (the matcher's input). */
export function normalizeKalshiEvents(raw: readonly unknown[]): { markets: VenueMarket[]; dropped: Dropped[] } {
  const events = parseEach(raw, KalshiEvent, idField('event_ticker'));
  const markets: VenueMarket[] = [];
  const dropped = [...events.dropped];
  for (const ev of events.ok) {
    const inner = parseMarkets(ev.markets ?? []);
    dropped.push(...inner.dropped);
    for (const m of inner.ok)
      markets.push(
        kalshiToVenueMarket(m, { series: ev.series_ticker, ...(ev.title ? { eventTitle: ev.title } : {}) }, dropped),
      );
  }
  return { markets, dropped };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
// Float noise from 1 - 0.56 (0.43999999999999995) must not reach a price.
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
