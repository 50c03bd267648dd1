/**
 * Kalshi's 15-minute crypto series (KXBTC15M, KXETH15M, KXSOL15M): one market per window, "above
 * or at the strike at close", `floor_strike` being the venue's reference price for the window
 * (null until it is set). Market data is public REST, so the open markets are polled at a rate far
 * inside the documented read limit; the market-data stream needs signed credentials.
 */
import { z } from 'zod';
import type { Asset, VenueQuoteMessage } from '../../model/index.js';
import type { Logger } from '../../runtime/log.js';
import { NO_ASKS, tradable, type QuoteSink, type QuoteSource, type UpDownAsks } from '../quotes/quote-source.js';
import type { KalshiClient } from './client.js';
import { kalshiMarketUrl } from '../../catalog/kalshi-pages.js';
import { KalshiMarket } from './schemas.js';
import { type CancelTimer, type Clock, systemClock, systemTimers, type Timers } from '../../model/clock.js';

export const KALSHI_OPERATOR = 'kalshi';

export const KALSHI_15M_SERIES: ReadonlyMap<Asset, string> = new Map([
  ['BTC', 'KXBTC15M'],
  ['ETH', 'KXETH15M'],
  ['SOL', 'KXSOL15M'],
]);

export const Kalshi15mMarket = KalshiMarket.extend({
  open_time: z.iso.datetime({ offset: true }),
  floor_strike: z.number().nullish(),
});
export type Kalshi15mMarket = z.infer<typeof Kalshi15mMarket>;

const num = (s: string | null | undefined) => (s == null ? undefined : Number(s));

/**
 * YES ("up") and NO ("down") asks; both null when a side has no ask (Kalshi reports none as 0 or
 * 1.00) or is crossed with its bid.
 */
export function kalshiAsks(m: Kalshi15mMarket): UpDownAsks {
  const up = num(m.yes_ask_dollars);
  const down = num(m.no_ask_dollars);
  if (!tradable(up) || !tradable(down)) return NO_ASKS;
  const crossed = (num(m.yes_bid_dollars) ?? 0) >= up || (num(m.no_bid_dollars) ?? 0) >= down;
  return crossed ? NO_ASKS : { up, down };
}

/** The market of `raws` whose window contains `nowMs` (open_time ≤ now < close_time), validated. */
export function currentMarket(raws: readonly unknown[], nowMs: number): Kalshi15mMarket | undefined {
  for (const raw of raws) {
    const m = Kalshi15mMarket.safeParse(raw);
    if (m.success && Date.parse(m.data.open_time) <= nowMs && nowMs < Date.parse(m.data.close_time)) return m.data;
  }
  return undefined;
}

/** One market as the wire quote of `asset`'s 15-minute window, polled at `nowMs` and answered by the venue at `venueMs`. */
export function kalshiQuote(asset: Asset, m: Kalshi15mMarket, nowMs: number, venueMs: number): VenueQuoteMessage {
  const strike = m.floor_strike;
  return {
    asset,
    horizonMinutes: 15,
    operatorId: KALSHI_OPERATOR,
    windowStart: new Date(Date.parse(m.open_time)).toISOString(),
    expiresAt: new Date(Date.parse(m.close_time)).toISOString(),
    ...kalshiAsks(m),
    strike: typeof strike === 'number' && strike > 0 && Number.isFinite(strike) ? strike : null,
    marketUrl: kalshiMarketUrl(m.event_ticker),
    ts: new Date(nowMs).toISOString(),
    venueTs: new Date(venueMs).toISOString(),
    source: 'kalshi-rest',
  };
}

export interface KalshiCrypto15mOptions {
  client: KalshiClient;
  log: Logger;
  pollMs: number;
  now?: Clock;
  /** The poll's timer. */
  timers?: Timers;
}

/** Polls each series' open markets and reports the current window's quote, or drops it. */
export function createKalshiCrypto15m(opts: KalshiCrypto15mOptions): QuoteSource {
  const now = opts.now ?? systemClock;
  let stopped = true;
  const schedule = opts.timers ?? systemTimers;
  let cancel: CancelTimer | undefined;
  const failing = new Set<string>();

  const pollSeries = async (sink: QuoteSink, asset: Asset, series: string) => {
    try {
      const page = await opts.client.marketsPage({ series_ticker: series, status: 'open' });
      const market = currentMarket(page.markets, now());
      failing.delete(series);
      if (stopped) return;
      // An answer without the venue's Date cannot be judged fresh: not quoted.
      if (market && page.answeredAt !== undefined) sink.put(kalshiQuote(asset, market, now(), page.answeredAt));
      else sink.drop(asset, 15, KALSHI_OPERATOR);
    } catch (err) {
      if (!failing.has(series))
        opts.log.warn({ err: (err as Error).message, series }, 'kalshi 15-minute market poll failed');
      failing.add(series);
      // A quote we can no longer confirm is not shown.
      if (!stopped) sink.drop(asset, 15, KALSHI_OPERATOR);
    }
  };

  const loop = (sink: QuoteSink) => {
    Promise.all([...KALSHI_15M_SERIES].map(([asset, series]) => pollSeries(sink, asset, series))).finally(() => {
      if (!stopped) cancel = schedule.after(opts.pollMs, () => loop(sink));
    });
  };

  return {
    name: 'kalshi-15m',
    async start(sink) {
      stopped = false;
      loop(sink);
    },
    async stop() {
      stopped = true;
      cancel?.();
    },
  };
}
