/**
 * A local HTTP server replaying the recorded upstream responses (test/fixtures/recorded) in each
 * provider's documented shape: Kalshi (/kalshi/...), Polymarket Gamma (/gamma/...) and CLOB
 * (/clob/...), The Odds API (/odds/...) and the ECB file (/ecb/...). Tests can inject faults, page
 * sizes and malformed entries, and stop and restart it on the same port. Up/down windows (Gamma
 * events, Kalshi 15-minute markets) are listed per test from the documented-shape templates in
 * test/fixtures/documented.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const dir = resolve(import.meta.dirname, '../fixtures/recorded');
const json = (name: string): unknown => JSON.parse(readFileSync(resolve(dir, name), 'utf8'));
const documented = (name: string): unknown => JSON.parse(readFileSync(resolve(dir, '../documented', name), 'utf8'));

type Obj = Record<string, unknown>;

/** Recorded data, copied per server so a test may edit its own. */
export function recorded() {
  const kalshiEvents = json('kalshi-events-nested.json') as Obj[];
  const kalshiSeries = json('kalshi-markets.json') as Record<string, Obj[]>;
  const kalshiMarkets: Obj[] = [
    ...kalshiEvents.flatMap((e) => (e.markets as Obj[]).map((m) => ({ ...m }))),
    ...Object.values(kalshiSeries).flat(),
  ];
  return {
    kalshiEvents,
    kalshiMarkets,
    gammaEvents: [
      ...(json('polymarket-gamma-events-2026.json') as Obj[]),
      ...(json('polymarket-gamma-events.json') as Obj[]),
    ],
    clobBook: json('polymarket-clob-ws-book.json') as {
      asset_id: string;
      bids: { price: string }[];
      asks: { price: string }[];
    },
    nbaOdds: json('odds-api-nba-odds.json') as Obj[],
    ecbXml: readFileSync(resolve(dir, 'ecb-eurofxref-daily.xml'), 'utf8'),
    pricesHistory: documented('polymarket-clob-prices-history.json') as { history: Array<{ t: number; p: number }> },
    kalshiCandles: documented('kalshi-market-candlesticks.json') as {
      candlesticks: Array<{ end_period_ts: number } & Obj>;
    },
  };
}

export interface Fault {
  /** Requests whose path starts with this. */
  prefix: string;
  /** 0 = never answer (a hung upstream). */
  status: number;
  headers?: Record<string, string>;
  /** How many requests it hits (default 1). */
  times?: number;
  /** The body sent (default `{"error":"injected"}`). */
  body?: unknown;
  /** Active until this epoch ms (Date.now(), so a test's fake clock), however many requests it hits. */
  untilMs?: number;
}

export interface ReplayServer {
  base: string;
  port: number;
  data: ReturnType<typeof recorded>;
  /** Every request path+query served, in order. */
  requests: string[];
  /** Page size of cursor-paginated Kalshi listings. */
  kalshiPageSize: number;
  /** Page size of Gamma's keyset listing (capped by the request's limit). */
  gammaPageSize: number;
  /** Quota left on The Odds API (decremented per odds call; headers report it). */
  oddsRemaining: number;
  /** Serve the ECB file dated today instead of its recorded date (end-to-end runs on the real clock). */
  ecbToday: boolean;
  /** Data API open interest per conditionId (none by default: unknown). */
  openInterest: Record<string, number>;
  /** /scores answers per sport key (no real recorded /scores response exists; tests supply one). */
  scores: Record<string, unknown[]>;
  /** Epoch ms the replayed NBA games are moved to (the earliest one), so they are upcoming. */
  oddsStartAt: number;
  /** The upstreams' clock, sent as each answer's `Date` header (the wall clock unless a test sets its own). */
  clock: () => number;
  fault(f: Fault): void;
  /** Forgets every fault still pending. */
  clearFaults(): void;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

/** The recorded books' stamps (captured 2022-12-27) and the newest of them, when the capture was made. */
const RECORDED_STAMP = /^2022-12-27T/;
const RECORDED_NEWEST = Math.max(
  ...(json('odds-api-nba-odds.json') as Obj[]).flatMap((e) =>
    (e.bookmakers as Obj[]).map((b) => Date.parse(String(b.last_update))),
  ),
);

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'application/xml' : 'application/json',
    ...headers,
  });
  res.end(text);
}

/** Starts the replay server on 127.0.0.1 (port 0 = any free port). */
export async function startReplayServer(port = 0): Promise<ReplayServer> {
  const faults: Array<Fault & { left: number }> = [];
  const state: ReplayServer = {
    base: '',
    port: 0,
    data: recorded(),
    requests: [],
    kalshiPageSize: 1000,
    gammaPageSize: 500,
    oddsRemaining: 500,
    scores: {},
    openInterest: {},
    ecbToday: false,
    oddsStartAt: Date.now() + 86_400_000,
    fault: (f) => faults.push({ ...f, left: f.times ?? 1 }),
    clock: Date.now,
    clearFaults: () => void faults.splice(0),
    stop: async () => undefined,
    restart: async () => undefined,
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const path = url.pathname;
    const q = url.searchParams;
    state.requests.push(`${path}${url.search}`);
    res.setHeader('date', new Date(state.clock()).toUTCString());
    const fault = faults.find(
      (f) => (f.untilMs !== undefined ? Date.now() < f.untilMs : f.left > 0) && path.startsWith(f.prefix),
    );
    if (fault) {
      fault.left--;
      if (fault.status === 0) return;
      return send(res, fault.status, fault.body ?? { error: 'injected' }, fault.headers);
    }
    const d = state.data;

    if (path === '/kalshi/markets' || path === '/kalshi/events') {
      let items: Obj[];
      if (path === '/kalshi/markets') {
        const tickers = q.get('tickers')?.split(',');
        items = d.kalshiMarkets.filter(
          (m) =>
            (!tickers || tickers.includes(String(m.ticker))) &&
            (!q.get('event_ticker') || m.event_ticker === q.get('event_ticker')) &&
            (!q.get('series_ticker') || String(m.event_ticker).startsWith(`${q.get('series_ticker')}-`)) &&
            (q.get('status') !== 'open' || m.status === 'active'),
        );
      } else {
        items = d.kalshiEvents;
      }
      const start = Number(q.get('cursor') || 0);
      const page = items.slice(start, start + state.kalshiPageSize);
      const next = start + state.kalshiPageSize < items.length ? String(start + state.kalshiPageSize) : '';
      return send(res, 200, { [path === '/kalshi/markets' ? 'markets' : 'events']: page, cursor: next });
    }
    const slugMatch = /^\/gamma\/events\/slug\/([^/]+)$/.exec(path);
    if (slugMatch) {
      const ev = d.gammaEvents.find((e) => e.slug === decodeURIComponent(slugMatch[1] as string));
      return ev ? send(res, 200, ev) : send(res, 404, { error: 'not found' });
    }
    if (path === '/gamma/events/keyset') {
      const start = Number(q.get('after_cursor') || 0);
      const limit = Number(q.get('limit') ?? 20);
      const size = Math.min(limit, state.gammaPageSize);
      const next = start + size < d.gammaEvents.length ? String(start + size) : undefined;
      return send(res, 200, {
        events: d.gammaEvents.slice(start, start + size),
        ...(next ? { next_cursor: next } : {}),
      });
    }
    if (path === '/gamma/events') {
      const offset = Number(q.get('offset') ?? 0);
      const limit = Number(q.get('limit') ?? 100);
      return send(res, 200, d.gammaEvents.slice(offset, offset + limit));
    }
    if (path === '/clob/price') {
      if (q.get('token_id') !== d.clobBook.asset_id)
        return send(res, 404, { error: 'No orderbook exists for the requested token id' });
      const prices = (q.get('side') === 'SELL' ? d.clobBook.asks : d.clobBook.bids).map((l) => Number(l.price));
      const best = q.get('side') === 'SELL' ? Math.min(...prices) : Math.max(...prices);
      return send(res, 200, { price: String(best) });
    }
    // Venue history: the documented-shape series (test/fixtures/documented) for any token or market, within the asked span.
    if (path === '/clob/prices-history') {
      const [from, to] = [Number(q.get('startTs') ?? 0), Number(q.get('endTs') ?? Infinity)];
      return send(res, 200, { history: d.pricesHistory.history.filter((p) => p.t >= from && p.t <= to) });
    }
    const candles = /^\/kalshi\/series\/([^/]+)\/markets\/([^/]+)\/candlesticks$/.exec(path);
    if (candles) {
      const [from, to] = [Number(q.get('start_ts') ?? 0), Number(q.get('end_ts') ?? Infinity)];
      return send(res, 200, {
        ticker: candles[2],
        candlesticks: d.kalshiCandles.candlesticks.filter((c) => c.end_period_ts >= from && c.end_period_ts <= to),
      });
    }
    if (path === '/data/oi') {
      // No recorded /oi response exists: tests set the values; the row shape is the documented one.
      const ids = (q.get('market') ?? '').split(',').filter(Boolean);
      return send(
        res,
        200,
        ids.flatMap((id) =>
          state.openInterest[id] !== undefined ? [{ market: id, value: state.openInterest[id] }] : [],
        ),
      );
    }
    const odds = /^\/odds\/v4\/sports\/([a-z_]+)\/odds$/.exec(path);
    if (odds) {
      if (state.oddsRemaining <= 0)
        return send(
          res,
          429,
          { message: 'quota exhausted' },
          { 'x-requests-remaining': '0', 'x-requests-used': '500' },
        );
      state.oddsRemaining -= 1;
      const headers = {
        'x-requests-remaining': String(state.oddsRemaining),
        'x-requests-used': String(500 - state.oddsRemaining),
        'x-requests-last': '3',
      };
      if (odds[1] !== 'basketball_nba') return send(res, 200, [], headers);
      // Recorded in 2022: moved forward in time, offsets between games kept, prices untouched. The
      // books' `last_update` stamps move so that the newest is the upstream's now, as at capture
      // (a stamp a test set itself, not a recorded one, is left as it is).
      const first = Math.min(...d.nbaOdds.map((e) => Date.parse(String(e.commence_time))));
      const shifted = d.nbaOdds.map((e) => ({
        ...e,
        commence_time: new Date(Date.parse(String(e.commence_time)) - first + state.oddsStartAt)
          .toISOString()
          .replace('.000Z', 'Z'),
        bookmakers: Array.isArray(e.bookmakers)
          ? (e.bookmakers as Obj[]).map((b) =>
              RECORDED_STAMP.test(String(b.last_update))
                ? { ...b, last_update: iso(Date.parse(String(b.last_update)) - RECORDED_NEWEST + state.clock()) }
                : b,
            )
          : e.bookmakers,
      }));
      return send(res, 200, shifted, headers);
    }
    const scores = /^\/odds\/v4\/sports\/([a-z_]+)\/scores$/.exec(path);
    if (scores)
      return send(res, 200, state.scores[scores[1] as string] ?? [], {
        'x-requests-remaining': String(state.oddsRemaining),
      });
    if (path === '/ecb/eurofxref-daily.xml') {
      // Recorded in 2025: served as today's fixing when asked (a real worker refuses a stale one).
      const xml = state.ecbToday
        ? d.ecbXml.replace(/time='\d{4}-\d{2}-\d{2}'/, `time='${new Date(state.clock()).toISOString().slice(0, 10)}'`)
        : d.ecbXml;
      return send(res, 200, xml);
    }
    return send(res, 404, { error: `no replay for ${path}` });
  };

  let server: Server = createServer(handle);
  const listen = (p: number) =>
    new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  await listen(port);
  state.port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${state.port}`;
  state.stop = () =>
    new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
    });
  state.restart = async () => {
    server = createServer(handle);
    await listen(state.port);
  };
  return state;
}

export interface UpDownWindow {
  asset: 'BTC' | 'ETH' | 'SOL';
  horizonMinutes: 5 | 15;
  windowStartMs: number;
  upToken: string;
  downToken: string;
  /** Gamma's `eventMetadata.priceToBeat`; omitted = not published yet. */
  priceToBeat?: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The Gamma event of one up/down window, in the documented shape (the template with this window's slug, times and tokens). */
export function upDownEvent(w: UpDownWindow): Obj {
  const template = documented('polymarket-gamma-updown-event.json') as Obj;
  const slug = `${w.asset.toLowerCase()}-updown-${w.horizonMinutes}m-${w.windowStartMs / 1000}`;
  const endDate = iso(w.windowStartMs + w.horizonMinutes * 60_000);
  const market = (template.markets as Obj[])[0] as Obj;
  return {
    ...template,
    slug,
    ticker: slug,
    endDate,
    eventMetadata: w.priceToBeat === undefined ? null : { priceToBeat: w.priceToBeat },
    markets: [
      {
        ...market,
        slug,
        endDate,
        eventStartTime: iso(w.windowStartMs),
        clobTokenIds: JSON.stringify([w.upToken, w.downToken]),
      },
    ],
  };
}

export interface Kalshi15mWindow {
  series: 'KXBTC15M' | 'KXETH15M' | 'KXSOL15M';
  windowStartMs: number;
  floorStrike: number | null;
  /** Dollar strings as Kalshi sends them ("0.5300"). */
  yesBid: string;
  yesAsk: string;
  noBid: string;
  noAsk: string;
}

/** Kalshi's ticker date part: the close time in US Eastern, e.g. 25NOV220915. */
function easternStamp(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: '2-digit',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}${String(parts.month).toUpperCase()}${parts.day}${parts.hour}${parts.minute}`;
}

/** A Kalshi 15-minute crypto market in the documented shape (the template with this window's ticker, times, strike and book). */
export function kalshi15mMarket(w: Kalshi15mWindow): Obj {
  const template = documented('kalshi-crypto-15m-market.json') as Obj;
  const closeMs = w.windowStartMs + 15 * 60_000;
  const event = `${w.series}-${easternStamp(closeMs)}`;
  return {
    ...template,
    ticker: `${event}-${easternStamp(closeMs).slice(-2)}`,
    event_ticker: event,
    open_time: iso(w.windowStartMs),
    close_time: iso(closeMs),
    floor_strike: w.floorStrike,
    yes_bid_dollars: w.yesBid,
    yes_ask_dollars: w.yesAsk,
    no_bid_dollars: w.noBid,
    no_ask_dollars: w.noAsk,
  };
}

/**
 * One replay server for a test file, reset before each test: recorded data, no requests, no
 * pending faults, the given quota. The returned object stands for the server once it runs.
 */
export function useReplayServer(reset: { oddsRemaining?: number } = {}): ReplayServer {
  const holder = {} as { server: ReplayServer };
  beforeAll(async () => {
    holder.server = await startReplayServer();
  });
  afterAll(async () => {
    await holder.server?.stop();
  });
  beforeEach(() => {
    const s = holder.server;
    s.data = recorded();
    s.requests.length = 0;
    s.clearFaults();
    s.oddsRemaining = reset.oddsRemaining ?? 500;
    s.clock = Date.now;
  });
  // Tests read and set fields (data, oddsRemaining ...) on the server started in beforeAll.
  return new Proxy({} as ReplayServer, {
    get: (_, k) => Reflect.get(holder.server, k),
    set: (_, k, v) => Reflect.set(holder.server, k, v),
  });
}

/** Environment pointing every real source at a replay server. */
export function replayEnv(base: string): Record<string, string> {
  return {
    KALSHI_BASE_URL: `${base}/kalshi`,
    POLYMARKET_GAMMA_URL: `${base}/gamma`,
    POLYMARKET_CLOB_URL: `${base}/clob`,
    POLYMARKET_DATA_URL: `${base}/data`,
    ODDS_API_BASE_URL: `${base}/odds`,
    ODDS_API_KEY: 'test-key',
    ECB_FX_URL: `${base}/ecb/eurofxref-daily.xml`,
  };
}
