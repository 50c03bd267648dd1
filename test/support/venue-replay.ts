/**
 * Both venue replays a `quotes=venues` feed needs, started together: Gamma and Kalshi over HTTP
 * (upstream-replay.ts) and Polymarket's CLOB market channel (clob-ws-replay.ts), with helpers that
 * list one window on a venue together with its books.
 */
import { bookMessage, startClobReplay, type ClobReplay, type Level } from './clob-ws-replay.js';
import {
  kalshi15mMarket,
  replayEnv,
  startReplayServer,
  upDownEvent,
  type Kalshi15mWindow,
  type ReplayServer,
  type UpDownWindow,
} from './upstream-replay.js';

export interface VenueReplay {
  http: ReplayServer;
  clob: ClobReplay;
  /** Environment pointing a feed at both replays (add SOURCES=quotes=venues). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts both replays; `clock` is the venues' clock (their `Date` headers and book stamps), the wall clock by default. */
export async function startVenueReplay(clock: () => number = Date.now): Promise<VenueReplay> {
  const http = await startReplayServer();
  const clob = await startClobReplay();
  http.clock = clock;
  clob.clock = clock;
  return {
    http,
    clob,
    env: { ...replayEnv(http.base), POLYMARKET_CLOB_WS_URL: clob.url, KALSHI_QUOTES_POLL_MS: '250' },
    stop: async () => {
      await clob.stop();
      await http.stop();
    },
  };
}

export interface BookLevels {
  bids: Level[];
  asks: Level[];
}

/**
 * Lists a Polymarket up/down window on Gamma and serves its tokens' books on the channel; a side
 * given as `null` gets no book at all, `'recorded'` the recorded book.
 */
export function listUpDown(
  r: VenueReplay,
  w: UpDownWindow,
  books: { up: BookLevels | 'recorded' | null; down: BookLevels | 'recorded' | null },
): void {
  r.http.data.gammaEvents.push(upDownEvent(w));
  for (const [token, levels] of [
    [w.upToken, books.up],
    [w.downToken, books.down],
  ] as const) {
    if (levels !== null) r.clob.books.set(token, bookMessage(token, levels === 'recorded' ? undefined : levels));
  }
}

/** Lists a Kalshi 15-minute market. */
export function listKalshi15m(r: VenueReplay, w: Kalshi15mWindow): void {
  r.http.data.kalshiMarkets.push(kalshi15mMarket(w));
}
