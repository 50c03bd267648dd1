/**
 * Polymarket up/down quotes: finds the current and next window's event of every (asset, horizon)
 * on Gamma, holds one CLOB market-channel connection subscribed to all their tokens, keeps the
 * books, and reports each current window's best asks and start price. The next window's tokens
 * are subscribed before it opens, so the roll at the boundary needs no new book.
 */
import { ASSETS, HORIZONS, type Asset, type Horizon, type VenueQuoteMessage } from '../../model/index.js';
import { windowAt } from '../../live/window.js';
import type { Logger } from '../../runtime/log.js';
import { UpstreamHttpError } from '../http/errors.js';
import { ReconnectingSocket } from '../stream/reconnecting-socket.js';
import type { QuoteSink, QuoteSource } from '../quotes/quote-source.js';
import { ClobBooks, parseClobFrame } from './clob-book.js';
import type { PolymarketClient } from './client.js';
import { parseUpDownEvent, upDownSlug, type UpDownMarket } from './updown-events.js';
import { type CancelTimer, type Clock, systemClock, systemTimers, type Timers } from '../../model/clock.js';

export const POLYMARKET_OPERATOR = 'polymarket';

export interface PolymarketUpDownOptions {
  client: PolymarketClient;
  /** The CLOB market channel, e.g. wss://ws-subscriptions-clob.polymarket.com/ws/market. */
  wsUrl: string;
  log: Logger;
  now?: Clock;
  /** Discovery's, evaluation's and the socket's timers. */
  timers?: Timers;
  /** How often Gamma is asked for events not found yet and for a start price not published yet. */
  discoverMs?: number;
  /** How often the current windows are re-evaluated, so a window rolls on time without a message. */
  evaluateMs?: number;
}

const PAIRS = ASSETS.flatMap((asset) => HORIZONS.map((horizon) => ({ asset, horizon })));
// The venue drops a market-channel connection that sends no text PING for a while (it asks for one
// every 10 s); every 5 s, a live socket answers at least twice within the 10 s silence limit, after
// which a socket that said nothing (not even a PONG) is dropped.
const PING_MS = 5_000;
const SILENCE_MS = 10_000;

export function createPolymarketUpDown(opts: PolymarketUpDownOptions): QuoteSource {
  const now = opts.now ?? systemClock;
  const schedule = opts.timers ?? systemTimers;
  const discoverMs = opts.discoverMs ?? 5_000;
  const markets = new Map<string, UpDownMarket>();
  const books = new ClobBooks();
  let sink: QuoteSink | undefined;
  let stopped = true;
  let socket: ReconnectingSocket | undefined;
  let subscribed = '';
  const cancel: { discover?: CancelTimer; evaluate?: CancelTimer } = {};
  let gammaFailing = false;

  /** Start times of the current and the next window. */
  const windows = (horizon: Horizon): [number, number] => {
    const cur = windowAt(now(), horizon).startMs;
    return [cur, cur + horizon * 60_000];
  };

  const fetchMarket = async (asset: Asset, horizon: Horizon, startMs: number): Promise<void> => {
    const slug = upDownSlug(asset, horizon, startMs);
    try {
      const market = parseUpDownEvent(await opts.client.eventBySlug(slug), asset, horizon, startMs);
      if (market) markets.set(slug, market);
      gammaFailing = false;
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return; // not listed (yet)
      if (!gammaFailing) opts.log.warn({ err: (err as Error).message, slug }, 'polymarket up/down event lookup failed');
      gammaFailing = true;
    }
  };

  /**
   * Reports every (asset, horizon)'s current-window quote, or its absence. A quote carries the
   * venue's own time of its books (`venueTs`) and when the socket last spoke (`ts`); a market whose
   * books carry no venue time is not quoted (it could not be judged fresh).
   */
  const evaluate = () => {
    if (!sink) return;
    const heard = socket?.lastHeardAt;
    for (const { asset, horizon } of PAIRS) {
      const m = markets.get(upDownSlug(asset, horizon, windowAt(now(), horizon).startMs));
      const venueTime = m ? books.venueTime(m.upToken, m.downToken) : undefined;
      if (!m || !books.has(m.upToken) || !books.has(m.downToken) || venueTime === undefined || heard === undefined) {
        sink.drop(asset, horizon, POLYMARKET_OPERATOR);
        continue;
      }
      const quote: VenueQuoteMessage = {
        asset,
        horizonMinutes: horizon,
        operatorId: POLYMARKET_OPERATOR,
        windowStart: new Date(m.windowStartMs).toISOString(),
        expiresAt: new Date(m.endMs).toISOString(),
        ...books.upDownAsks(m.upToken, m.downToken),
        strike: m.priceToBeat,
        marketUrl: m.marketUrl,
        ts: new Date(heard).toISOString(),
        venueTs: new Date(venueTime).toISOString(),
        source: 'polymarket-clob',
      };
      sink.put(quote);
    }
  };

  /** (Re)subscribes when the wanted token set changed; the channel has no unsubscribe, so it reconnects. */
  const subscribe = () => {
    const tokens = [...markets.values()].flatMap((m) => [m.upToken, m.downToken]).sort();
    const key = tokens.join(',');
    if (key === subscribed) return;
    subscribed = key;
    books.retain(new Set(tokens));
    socket?.stop();
    socket = undefined;
    if (tokens.length === 0) return;
    socket = new ReconnectingSocket({
      name: 'polymarket clob',
      url: opts.wsUrl,
      log: opts.log,
      now,
      timers: schedule,
      silenceMs: SILENCE_MS,
      pingMs: PING_MS,
      pingText: 'PING',
      subscribe: JSON.stringify({ assets_ids: tokens, type: 'market' }),
      onMessage: (text) => {
        let changed = false;
        for (const msg of parseClobFrame(text)) changed = books.apply(msg).length > 0 || changed;
        if (changed) evaluate();
      },
      onClose: () => {
        // Without the stream the books are unknown: the venue is out until fresh snapshots arrive.
        books.clear();
        evaluate();
      },
    });
    socket.start();
  };

  const discover = async () => {
    const jobs: Promise<void>[] = [];
    const keep = new Set<string>();
    for (const { asset, horizon } of PAIRS) {
      const [cur, next] = windows(horizon);
      for (const start of [cur, next]) {
        const slug = upDownSlug(asset, horizon, start);
        keep.add(slug);
        const known = markets.get(slug);
        if (!known || (start === cur && known.priceToBeat === null)) jobs.push(fetchMarket(asset, horizon, start));
      }
    }
    for (const slug of markets.keys()) if (!keep.has(slug)) markets.delete(slug);
    await Promise.all(jobs);
    if (stopped) return;
    subscribe();
    evaluate();
  };

  const discoverLoop = () => {
    discover()
      .catch((err: unknown) => opts.log.error({ err }, 'polymarket up/down discovery failed'))
      .finally(() => {
        if (!stopped) cancel.discover = schedule.after(discoverMs, discoverLoop);
      });
  };

  return {
    name: 'polymarket-updown',
    async start(s) {
      sink = s;
      stopped = false;
      discoverLoop();
      cancel.evaluate = schedule.every(opts.evaluateMs ?? 1_000, evaluate);
    },
    async stop() {
      stopped = true;
      cancel.discover?.();
      cancel.evaluate?.();
      socket?.stop();
      socket = undefined;
    },
  };
}
