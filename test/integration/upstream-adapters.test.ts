/**
 * Every adapter against the recorded responses, served by a local HTTP server (no network):
 * cursor pagination, 429 with Retry-After, 5xx, a hung upstream, a malformed market among good
 * ones, a missing price field (CLOB fallback), and The Odds API quota running out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { createEcbSource } from '../../src/sources/ecb/source.js';
import { HttpClient } from '../../src/sources/http/client.js';
import {
  QuotaExhaustedError,
  UpstreamBackoffError,
  UpstreamHttpError,
  UpstreamTimeoutError,
} from '../../src/sources/http/errors.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { EventsData, LeagueData } from '../../src/model/index.js';
import { recorded, startReplayServer, type ReplayServer } from '../support/upstream-replay.js';

let replay: ReplayServer;
const warnings: string[] = [];
const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
const now = new Date('2026-03-01T12:00:00Z');

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.stop();
});
beforeEach(() => {
  replay.data = recorded();
  replay.requests.length = 0;
  replay.kalshiPageSize = 1000;
  replay.gammaPageSize = 500;
  replay.oddsRemaining = 500;
  warnings.length = 0;
});

const kalshi = () => new KalshiClient({ baseUrl: `${replay.base}/kalshi`, timeoutMs: 2_000 });
const polymarket = () =>
  new PolymarketClient({
    gammaUrl: `${replay.base}/gamma`,
    clobUrl: `${replay.base}/clob`,
    dataUrl: `${replay.base}/data`,
    timeoutMs: 2_000,
  });

describe('Kalshi client', () => {
  it('follows the cursor through every page', async () => {
    replay.kalshiPageSize = 3;
    const events = await kalshi().listEvents();
    expect(events).toHaveLength(4);
    expect(replay.requests.map((r) => new URL(r, 'http://x').searchParams.get('cursor'))).toEqual([null, '3']);
    const markets = await kalshi().marketsByTicker([
      'KXUSAIRANAGREEMENT-27-26APR',
      'KXUSAIRANAGREEMENT-27',
      'KXRECOGPERSONIRAN-26',
      'KXIRANDEMOCRACY-27MAR01-T6',
    ]);
    expect(markets.map((m) => (m as { ticker: string }).ticker).sort()).toEqual([
      'KXIRANDEMOCRACY-27MAR01-T6',
      'KXRECOGPERSONIRAN-26',
      'KXUSAIRANAGREEMENT-27',
      'KXUSAIRANAGREEMENT-27-26APR',
    ]);
  });

  it('waits out a 429 with Retry-After and then succeeds', async () => {
    replay.fault({ prefix: '/kalshi/markets', status: 429, headers: { 'retry-after': '0' } });
    const markets = await kalshi().marketsByTicker(['KXRECOGPERSONIRAN-26']);
    expect(markets).toHaveLength(1);
    expect(replay.requests.filter((r) => r.startsWith('/kalshi/markets'))).toHaveLength(2);
  });

  it('does not sit out a long Retry-After inside a refresh: it fails at once and calls no more until then', async () => {
    replay.fault({ prefix: '/kalshi/markets', status: 429, headers: { 'retry-after': '600' } });
    const client = kalshi();
    await expect(client.marketsByTicker(['KXRECOGPERSONIRAN-26'])).rejects.toMatchObject({
      name: 'UpstreamHttpError',
      status: 429,
    });
    await expect(client.marketsByTicker(['KXRECOGPERSONIRAN-26'])).rejects.toBeInstanceOf(UpstreamBackoffError);
    expect(replay.requests).toHaveLength(1);
  });
});

describe('Polymarket keyset listing', () => {
  it('follows next_cursor as after_cursor and reports a listing cut by the page cap', async () => {
    replay.gammaPageSize = 2;
    const all = await polymarket().listEvents();
    expect(all.truncated).toBeUndefined();
    expect(all.events).toHaveLength(replay.data.gammaEvents.length);
    expect(replay.requests.map((r) => new URL(r, 'http://x').searchParams.get('after_cursor'))).toEqual([
      null,
      '2',
      '4',
    ]);
    const capped = await polymarket().listEvents(undefined, 2);
    expect(capped.events).toHaveLength(4);
    expect(capped.truncated).toMatch(/page cap of 2/);
  });
});

describe('HTTP client faults', () => {
  it('retries 5xx with backoff and gives up after its attempts', async () => {
    replay.fault({ prefix: '/kalshi', status: 502, times: 3 });
    const http = new HttpClient({ name: 't', baseUrl: `${replay.base}/kalshi`, attempts: 3, backoffBaseMs: 1 });
    await expect(http.getJson('/events')).rejects.toBeInstanceOf(UpstreamHttpError);
    expect(replay.requests).toHaveLength(3);
  });

  it('a hung upstream times out; a 404 is not retried; the API key never appears in errors', async () => {
    replay.fault({ prefix: '/kalshi/events', status: 0 });
    const http = new HttpClient({ name: 't', baseUrl: `${replay.base}/kalshi`, attempts: 1, timeoutMs: 300 });
    await expect(http.getJson('/events')).rejects.toBeInstanceOf(UpstreamTimeoutError);
    const err = (await http.getJson('/nothing', { apiKey: 'secret-key' }).then(
      () => new Error('expected a failure'),
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(err.message).not.toContain('secret-key');
    expect(replay.requests.filter((r) => r.startsWith('/kalshi/nothing'))).toHaveLength(1);
  });
});

describe('catalog events source (Kalshi + Polymarket)', () => {
  it('fetches exactly the referenced markets and prices the catalog from them', async () => {
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: kalshi(),
      polymarket: polymarket(),
      log,
    });
    const fetched = await source.fetchEvents({ now });
    const data = EventsData.parse(fetched);
    expect(source.last()).toBeUndefined();
    source.accept(fetched);
    const tickers = new URL(replay.requests.find((r) => r.startsWith('/kalshi/markets'))!, 'http://x').searchParams
      .get('tickers')!
      .split(',');
    expect(tickers.sort()).toEqual([
      'KXIRANDEMOCRACY-27MAR01-T6',
      'KXKHAMENEIOUT-AKHA-26MAR01',
      'KXRECOGPERSONIRAN-26',
      'KXUSAIRANAGREEMENT-27',
      'KXUSAIRANAGREEMENT-27-26APR',
      'KXUSAIRANAGREEMENT-27-26AUG',
    ]);
    expect(replay.requests.filter((r) => r.startsWith('/gamma/events/slug/')).sort()).toEqual([
      '/gamma/events/slug/iran-x-israelus-conflict-ends-by',
      '/gamma/events/slug/khamenei-out-as-supreme-leader-of-iran-by-february-28',
    ]);
    const deal = data.events.find((e) => e.slug === 'us-iran-nuclear-deal-2026')!;
    expect(deal.outcomes.map((o) => [o.name, o.quotes[0]!.yesPrice, o.quotes[0]!.volume24hUsd])).toEqual([
      ['Before April 2026', 0.18, 14528.96],
      ['Before August 2026', 0.45, 12623.4],
      ['Before 2027', 0.63, 6003.2],
    ]);
    const conflict = data.events.find((e) => e.slug === 'iran-israel-us-conflict-ends-march-2026')!;
    expect(conflict.outcomes.map((o) => o.quotes[0]!.yesPrice)).toEqual([0.09, 0.24, 0.64]);
    expect(source.last()?.markets.length).toBeGreaterThan(0);
  });

  it('one malformed market costs only its own quote; a missing ask is read from the CLOB', async () => {
    const bad = replay.data.kalshiMarkets.find((m) => m.ticker === 'KXUSAIRANAGREEMENT-27-26AUG')!;
    bad.yes_ask_dollars = 'forty-five cents';
    const gamma = replay.data.gammaEvents.find((e) => e.slug === 'iran-x-israelus-conflict-ends-by') as {
      markets: Record<string, unknown>[];
    };
    const m7 = gamma.markets[0]!;
    delete m7.bestAsk;
    m7.clobTokenIds = JSON.stringify([replay.data.clobBook.asset_id, '1']);
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: kalshi(),
      polymarket: polymarket(),
      log,
    });
    const data = EventsData.parse(await source.fetchEvents({ now }));
    const deal = data.events.find((e) => e.slug === 'us-iran-nuclear-deal-2026')!;
    expect(deal.outcomes.map((o) => o.name)).toEqual(['Before April 2026', 'Before 2027']);
    expect(warnings.join('\n')).toMatch(/KXUSAIRANAGREEMENT-27-26AUG/);
    // The CLOB book's best ask is 0.08 (the recorded book's lowest ask).
    const conflict = data.events.find((e) => e.slug === 'iran-israel-us-conflict-ends-march-2026')!;
    expect(conflict.outcomes[0]!.quotes[0]!.yesPrice).toBe(0.08);
    expect(replay.requests).toContain(`/clob/price?token_id=${replay.data.clobBook.asset_id}&side=SELL`);
  });

  it('reads Polymarket open interest from the Data API; a market it does not list stays unknown', async () => {
    const cid = '0x4fad2d024d0a82efa02dcef616a30739eb6cb5c5f088ec92a4ffbc7bda6f69b1';
    replay.openInterest = { [cid]: 125000.5 };
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: kalshi(),
      polymarket: polymarket(),
      log,
    });
    source.accept(await source.fetchEvents({ now }));
    const poly = source.last()!.markets.filter((m) => m.venue === 'polymarket');
    expect(poly.find((m) => m.id === 'iran-x-israelus-conflict-ends-by-march-7')!.openInterestUsd).toBe(125000.5);
    expect(poly.find((m) => m.id === 'iran-x-israelus-conflict-ends-by-march-15')!.openInterestUsd).toBeNull();
    const oi = replay.requests.find((r) => r.startsWith('/data/oi'))!;
    expect(new URL(oi, 'http://x').searchParams.get('market')!.split(',')).toHaveLength(4);
    replay.openInterest = {};
  });

  it('a venue that fails fails the fetch (the worker keeps the last good snapshot)', async () => {
    replay.fault({ prefix: '/gamma', status: 503, times: 10, headers: { 'retry-after': '0' } });
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: kalshi(),
      polymarket: polymarket(),
      log,
    });
    // Two slugs in parallel: the breaker may open before the second call's last retry.
    await expect(source.fetchEvents({ now })).rejects.toThrow(/polymarket-gamma: (HTTP 503|circuit open)/);
  });
});

describe('odds provider sportsbook source', () => {
  it('serves the recorded NBA odds and stops calling once the quota is spent', async () => {
    replay.oddsRemaining = 1;
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k', timeoutMs: 2_000 });
    const source = createOddsSportsbookSource({ odds, log });
    const nba = LeagueData.parse(await source.fetchLeague('NBA', { now: new Date() }));
    expect(nba.upcoming).toHaveLength(3);
    expect(nba.upcoming[0]!.books.find((b) => b.operatorId === 'fanduel')).toBeDefined();
    expect(odds.quota.snapshot()).toMatchObject({ remaining: 0, used: 500, last: 3 });
    expect(new URL(replay.requests.find((r) => r.startsWith('/odds/'))!, 'http://x').searchParams.get('markets')).toBe(
      'h2h,spreads,totals',
    );
    const calls = replay.requests.length;
    await expect(source.fetchLeague('NFL', { now: new Date() })).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(replay.requests).toHaveLength(calls);
  });

  it('grades finished games from /scores against the consensus line seen before kick-off', async () => {
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k' });
    const source = createOddsSportsbookSource({ odds, log, minIntervalMs: 0, scoresIntervalMs: 0 });
    const first = await source.fetchLeague('NBA', { now: new Date() });
    expect(first.finished).toEqual([]);
    source.accept(first); // as the refresh does once the gate passes: only then do its lines count
    // No real /scores capture exists; this one is written by hand in the documented v4 shape.
    replay.scores.basketball_nba = [
      {
        id: '066aa4c604d177adc145976864d73fe8',
        sport_key: 'basketball_nba',
        commence_time: '2022-12-28T00:10:00Z',
        completed: true,
        home_team: 'Orlando Magic',
        away_team: 'Los Angeles Lakers',
        scores: [
          { name: 'Orlando Magic', score: '116' },
          { name: 'Los Angeles Lakers', score: '108' },
        ],
        last_update: '2022-12-28T02:40:00Z',
      },
      {
        id: 'not-seen-before',
        sport_key: 'basketball_nba',
        commence_time: '2022-12-28T00:10:00Z',
        completed: true,
        home_team: 'Miami Heat',
        away_team: 'Utah Jazz',
        scores: null,
      },
    ];
    const second = LeagueData.parse(await source.fetchLeague('NBA', { now: new Date() }));
    // Home spreads -3.5, -3.5, -3.5, -4 → median -3.5; totals 236.5 x3 and 236 → 236.5
    expect(second.finished).toEqual([
      {
        id: '066aa4c604d177adc145976864d73fe8',
        scheduledTime: '2022-12-28T00:10:00.000Z',
        homeCode: 'ORL',
        awayCode: 'LAL',
        homeScore: 116,
        awayScore: 108,
        closingSpreadHome: -3.5,
        closingTotal: 236.5,
      },
    ]);
    replay.scores = {};
  });

  it('adds Kalshi game contracts beside the books when asked', async () => {
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k' });
    const source = createOddsSportsbookSource({ odds, kalshi: kalshi(), log });
    const nba = await source.fetchLeague('NBA', { now: new Date() });
    // No recorded Kalshi NBA game overlaps the recorded NBA odds: the books stand alone.
    expect(nba.upcoming[0]!.books.some((b) => b.operatorId === 'kalshi')).toBe(false);
    expect(replay.requests.some((r) => r.includes('series_ticker=KXNBAGAME'))).toBe(true);
  });
});

describe('ECB source', () => {
  it('fetches and converts the daily file', async () => {
    const fx = await createEcbSource({ url: `${replay.base}/ecb/eurofxref-daily.xml` }).fetchRates({ now });
    expect(fx).toMatchObject({ asOfDate: '2025-05-09', rates: { USD: 1, EUR: 0.888731 } });
  });
});
