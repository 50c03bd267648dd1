/**
 * The drift corpus: mutations of the recorded Kalshi, Polymarket, Odds API and ECB responses, each
 * served by the replay server and run through the real normalizers, the real refresh job and real
 * Redis after a good refresh. Each asserts its exact outcome: the mutation is tolerated (same
 * snapshot); only the bad item is dropped or held, and marked in the meta with its class, logged
 * once and counted in the metric; or the last good snapshot is kept with the failure, its reason,
 * its warning and its metric. The classes and the ten invariants are those of docs/sources.md (at
 * least two cases each; the invariant's number is in each case's name).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { americanToDecimal } from '../../src/domain/odds.js';
import { itemsDropped, itemsDroppedTotal, refreshFailuresTotal } from '../../src/metrics/sources.js';
import { DEFAULT_QUALITY } from '../../src/sources/quality/options.js';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { createDerivedMetricsSource } from '../../src/sources/combined/derived-metrics.js';
import { createEcbSource } from '../../src/sources/ecb/source.js';
import { FIGURE_HOLD_MS } from '../../src/sources/quality/figure-jumps.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { catalogView } from '../../src/catalog/shown-operators.js';
import { snapKey } from '../../src/store/keys.js';
import type { WidgetContext } from '../../src/widgets/context.js';
import { buildSportsbookWidget } from '../../src/widgets/sportsbook-widget.js';
import { buildLiveMarketWidget } from '../../src/widgets/live-market-widget.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import type { LiveView } from '../../src/live/engine.js';
import { LIVE_VENUES } from '../../src/live/venues.js';
import { windowAt } from '../../src/live/window.js';
import type { VenueQuoteMessage } from '../../src/model/index.js';
import { createKalshiCrypto15m } from '../../src/sources/kalshi/crypto-15m.js';
import type { SnapshotKind } from '../../src/store/schemas.js';
import { readMeta, readSnapshot } from '../../src/store/snapshots.js';
import { refreshEvents } from '../../workers/jobs/refresh-events.js';
import { refreshFx } from '../../workers/jobs/refresh-fx.js';
import { refreshMetrics } from '../../workers/jobs/refresh-metrics.js';
import { refreshSportsbook } from '../../workers/jobs/refresh-sportsbook.js';
import type { RefreshDeps, RefreshResult } from '../../workers/refresh.js';
import { useRedis } from '../support/redis.js';
import { kalshi15mMarket, useReplayServer } from '../support/upstream-replay.js';

type Obj = Record<string, unknown>;

const redis = useRedis();
const replay = useReplayServer({ oddsRemaining: 500 });
// Every warning the refresh and the sources log, to assert the one line each drop or failure gets.
const lines: Array<Record<string, unknown>> = [];
const log = pino(
  { level: 'warn' },
  { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
);
const DROP_LOG = 'items dropped, held or lost; the rest published';
// Short pauses: these cases are about what gets published, not about timing (upstream-backoff.test.ts).
const FAST = { backoffBaseMs: 1, backoffMaxMs: 2, breakerBaseMs: 1 };

beforeEach(async () => {
  await redis.client.flushdb();
  lines.length = 0;
});

let clock = new Date('2026-02-27T12:00:00.000Z');
const deps = (): RefreshDeps => ({ redis: redis.client, log, now: () => clock.getTime(), fetchTimeoutMs: 5_000 });
const tick = () => {
  clock = new Date(clock.getTime() + 5_000);
};

const kalshiMarket = (ticker: string) => replay.data.kalshiMarkets.find((m) => m.ticker === ticker)!;
const gammaEvent = (slug: string) => replay.data.gammaEvents.find((e) => e.slug === slug) as Obj & { markets: Obj[] };
const gammaMarket = (slug: string) =>
  replay.data.gammaEvents.flatMap((e) => e.markets as Obj[]).find((m) => m.slug === slug)!;

/** A fresh source and job per case: no breaker or cache state leaks between cases. */
function eventsJob() {
  clock = new Date('2026-02-27T12:00:00.000Z');
  const source = createCatalogEventsSource({
    catalog: loadEventCatalog(),
    kalshi: new KalshiClient({ baseUrl: `${replay.base}/kalshi`, resilience: FAST }),
    polymarket: new PolymarketClient({
      gammaUrl: `${replay.base}/gamma`,
      clobUrl: `${replay.base}/clob`,
      dataUrl: `${replay.base}/data`,
      resilience: FAST,
    }),
    log,
  });
  // The source rides along for cases that derive metrics from its last accepted fetch.
  return Object.assign(refreshEvents(deps(), source), { source });
}
function sportsbookJob() {
  clock = new Date();
  // The provider's clock stands still for the case: its books' stamps are the same on every call.
  const at = clock.getTime();
  replay.clock = () => at;
  // A quota this large paces nothing: these cases call the provider on every refresh.
  replay.oddsRemaining = 1e9;
  const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k', resilience: FAST });
  const run = refreshSportsbook(deps(), createOddsSportsbookSource({ odds, log, minIntervalMs: 0 }));
  return () => run({ league: 'NBA' });
}
function fxJob() {
  // The recorded fixing is dated 2025-05-09 (a Friday).
  clock = new Date('2025-05-10T09:00:00.000Z');
  return refreshFx(deps(), createEcbSource({ url: `${replay.base}/ecb/eurofxref-daily.xml`, resilience: FAST }));
}

/** Runs the good baseline refresh and returns the stored snapshot string. */
async function baseline(kind: SnapshotKind, key: string, run: () => Promise<RefreshResult>): Promise<string> {
  expect(await run()).toEqual({ version: 1, endedFailures: 0 });
  tick();
  return (await redis.client.get(snapKey(kind, key)))!;
}

const metric = async (
  m: typeof itemsDropped | typeof itemsDroppedTotal | typeof refreshFailuresTotal,
  labels: Record<string, string>,
) =>
  (await m.get()).values.find((v) =>
    Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
  )?.value ?? 0;

/** The refresh fails, the last good snapshot stays byte for byte, the failure and reason are counted and warned once. */
async function keptLastGood(
  kind: SnapshotKind,
  key: string,
  run: () => Promise<RefreshResult>,
  good: string,
  reason: string,
  message: RegExp,
) {
  const failures = await metric(refreshFailuresTotal, { kind, key, reason });
  await expect(run()).rejects.toThrow(message);
  expect(await redis.client.get(snapKey(kind, key))).toBe(good);
  const meta = await readMeta(redis.client, kind, key);
  expect(meta).toMatchObject({ version: 1, failures: 1, lastReason: reason });
  expect(meta!.lastError).toMatch(message);
  expect(
    lines.filter(
      (l) =>
        l.msg === 'refresh failed; keeping the last good snapshot' &&
        l.reason === reason &&
        String(l.err).match(message),
    ),
  ).toHaveLength(1);
  expect(await metric(refreshFailuresTotal, { kind, key, reason })).toBe(failures + 1);
}

interface Expected {
  id: string;
  class: string;
  reason?: RegExp | string;
}

/**
 * Each expected item is in the meta's dropped list with its class (and reason), in the one warning
 * the refresh logged for new drops, and the gauge of its class counts the meta's items of that class.
 */
async function reported(kind: SnapshotKind, key: string, expected: Expected[]) {
  const items = (await readMeta(redis.client, kind, key))!.dropped!.items;
  const logged = lines.filter((l) => l.msg === DROP_LOG && l.kind === kind && l.key === key);
  expect(logged).toHaveLength(1);
  const loggedItems = logged[0]!.items as Expected[];
  for (const e of expected) {
    const reason =
      e.reason === undefined
        ? expect.any(String)
        : typeof e.reason === 'string'
          ? e.reason
          : expect.stringMatching(e.reason);
    expect(items).toContainEqual(expect.objectContaining({ id: e.id, class: e.class, reason }));
    // The warning shows the first 20 new items; its byClass counts them all.
    if ((logged[0]!.count as number) <= 20) expect(loggedItems).toContainEqual({ id: e.id, class: e.class, reason });
    expect((logged[0]!.byClass as Record<string, number>)[e.class]).toBeGreaterThan(0);
    expect(await metric(itemsDropped, { kind, key, class: e.class })).toBe(
      items.filter((d) => d.class === e.class).length,
    );
  }
}

/** The refresh succeeds with the same content: tolerated drift, no new version. */
async function tolerated(kind: SnapshotKind, key: string, run: () => Promise<RefreshResult>, good: string) {
  expect(await run()).toEqual({ version: 0, endedFailures: 0 });
  expect(await redis.client.get(snapKey(kind, key))).toBe(good);
}

const quoteOf = async (slug: string, outcome: string, operatorId: string) =>
  (await readSnapshot(redis.client, 'events', 'all'))!.data.events
    .find((e) => e.slug === slug)
    ?.outcomes.find((o) => o.name === outcome)
    ?.quotes.find((q) => q.operatorId === operatorId);

const outcomeNames = async () =>
  Object.fromEntries(
    (await readSnapshot(redis.client, 'events', 'all'))!.data.events.map((e) => [
      e.slug,
      e.outcomes.map((o) => o.name),
    ]),
  );

const BASE_EVENTS = {
  'khamenei-out-by-end-of-february-2026': ['Yes', 'No'],
  'us-iran-nuclear-deal-2026': ['Before April 2026', 'Before August 2026', 'Before 2027'],
  'us-recognizes-reza-pahlavi-2026': ['Yes', 'No'],
  'iran-democracy-index-2026': ['Yes', 'No'],
  'iran-israel-us-conflict-ends-march-2026': ['By March 7', 'By March 15', 'By March 31'],
};

describe('drift corpus: Kalshi + Polymarket events', () => {
  it('baseline: the recorded responses price every catalog event', async () => {
    await baseline('events', 'all', eventsJob());
    expect(await outcomeNames()).toEqual(BASE_EVENTS);
  });

  it('1. Kalshi markets without the deprecated `title`: tolerated, same snapshot', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    for (const m of replay.data.kalshiMarkets) delete m.title;
    await tolerated('events', 'all', run, good);
  });

  it('2. Gamma `bestBid: null`: tolerated; only that market loses its bid, every price stays', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-15').bestBid = null;
    expect((await run()).endedFailures).toBe(0);
    const after = (await redis.client.get(snapKey('events', 'all')))!;
    // Without a bid the quote has no mid (the ask alone stands); nothing else may change.
    const withoutBids = (raw: string) => JSON.parse(raw, (k, v: unknown) => (k === 'yesBid' ? undefined : v)).data;
    const bids = (raw: string) => raw.split('"yesBid"').length - 1;
    expect(withoutBids(after)).toEqual(withoutBids(good));
    expect(bids(after)).toBe(bids(good) - 1);
  });

  it('3. Kalshi prices as numbers instead of fixed-point strings: tolerated, same snapshot', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    for (const m of replay.data.kalshiMarkets) {
      for (const k of ['yes_bid_dollars', 'yes_ask_dollars', 'no_bid_dollars', 'no_ask_dollars', 'last_price_dollars'])
        if (typeof m[k] === 'string') m[k] = Number(m[k]);
    }
    await tolerated('events', 'all', run, good);
  });

  it('4. Gamma prices as decimal strings, and null optional fields: tolerated, same snapshot', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    for (const m of gammaEvent('iran-x-israelus-conflict-ends-by').markets) {
      m.bestAsk = String(m.bestAsk);
      m.lastTradePrice = String(m.lastTradePrice);
      m.groupItemTitle = null;
      m.endDate = null;
    }
    await tolerated('events', 'all', run, good);
  });

  it('5. field (6): unused fields malformed (Gamma description a number, Kalshi rules an object): tolerated, each reported', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-7').description = 42;
    kalshiMarket('KXRECOGPERSONIRAN-26').rules_primary = { text: 'moved' };
    kalshiMarket('KXRECOGPERSONIRAN-26').expected_expiration_time = 'soon';
    await tolerated('events', 'all', run, good);
    // The rules are passed on (the matcher reads them): malformed, they cost only themselves, and say so.
    await reported('events', 'all', [
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26/rules_primary',
        class: 'field',
        reason: 'rules_primary {"text":"moved"} is not text: left out, prices kept',
      },
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7/description',
        class: 'field',
        reason: 'description 42 is not text: left out, prices kept',
      },
    ]);
  });

  it('6. a cents-only legacy Kalshi market is drift: that market is dropped and marked, the rest kept', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    const m = kalshiMarket('KXRECOGPERSONIRAN-26');
    for (const k of Object.keys(m)) if (k.endsWith('_dollars')) delete m[k];
    Object.assign(m, { yes_bid: 25, yes_ask: 27, no_bid: 73, no_ask: 75, last_price: 26 });
    expect(await run()).toMatchObject({ version: 2 });
    const { 'us-recognizes-reza-pahlavi-2026': gone, ...rest } = BASE_EVENTS;
    expect(gone).toBeDefined();
    expect(await outcomeNames()).toEqual(rest);
    await reported('events', 'all', [
      { id: 'kalshi:KXRECOGPERSONIRAN-26', class: 'schema', reason: /legacy cents-only/ },
      { id: 'us-recognizes-reza-pahlavi-2026/Yes/kalshi', class: 'lost' },
    ]);
  });

  it('7. a Gamma slug that 404s (renamed or removed): only its event is dropped and marked', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    // Khamenei's Polymarket event (2 of Polymarket's 5 quotes: under the loss bound).
    gammaEvent('khamenei-out-as-supreme-leader-of-iran-by-february-28').slug = 'khamenei-renamed';
    expect(await run()).toMatchObject({ version: 2 });
    const { 'khamenei-out-by-end-of-february-2026': gone, ...rest } = BASE_EVENTS;
    expect(gone).toBeDefined();
    expect(await outcomeNames()).toEqual(rest);
    await reported('events', 'all', [
      { id: 'polymarket:khamenei-out-as-supreme-leader-of-iran-by-february-28', class: 'missing', reason: /404/ },
    ]);
    expect((await readMeta(redis.client, 'events', 'all'))!.failures).toBe(0);
  });

  it('8. a CLOB token without a book (404) when Gamma has no ask: only that outcome is dropped and marked', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    const m7 = gammaMarket('iran-x-israelus-conflict-ends-by-march-7');
    m7.bestAsk = null;
    m7.clobTokenIds = JSON.stringify(['111', '222']);
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 15', 'By March 31']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7',
        class: 'missing',
        reason: /no order book \(404\)/,
      },
    ]);
  });

  it('9. a delisted Kalshi ticker: only its outcome is dropped and marked', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    replay.data.kalshiMarkets = replay.data.kalshiMarkets.filter((m) => m.ticker !== 'KXUSAIRANAGREEMENT-27-26AUG');
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['us-iran-nuclear-deal-2026']).toEqual(['Before April 2026', 'Before 2027']);
    await reported('events', 'all', [
      {
        id: 'kalshi:KXUSAIRANAGREEMENT-27-26AUG',
        class: 'missing',
        reason: 'us-iran-nuclear-deal-2026/Before August 2026: market not returned by the venue',
      },
    ]);
  });

  it('10. a Gamma market re-listed under another conditionId: dropped and flagged by the match guard', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-31').conditionId = `0x${'ab'.repeat(32)}`;
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 7', 'By March 15']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-31',
        class: 'guard',
        reason: /match guard: conditionId 0xabab.* is not the reviewed/,
      },
    ]);
  });

  it('11. a Kalshi question that turned around since review: dropped and flagged, never priced', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXRECOGPERSONIRAN-26').title =
      'Will the United States not recognize Reza Pahlavi as the leader of Iran in 2026?';
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('us-recognizes-reza-pahlavi-2026');
    const meta = await readMeta(redis.client, 'events', 'all');
    expect(meta!.dropped!.items.filter((d) => d.id === 'kalshi:KXRECOGPERSONIRAN-26').map((d) => d.reason)).toEqual([
      expect.stringMatching(/^us-recognizes-reza-pahlavi-2026\/Yes: match guard: question inverted/),
      expect.stringMatching(/^us-recognizes-reza-pahlavi-2026\/No: match guard: question inverted/),
    ]);
  });

  it('12. Gamma `archived: true`: the market is not open, its outcome is left out', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-7').archived = true;
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 15', 'By March 31']);
  });

  it('13. a crossed Kalshi book (bid above ask): that market is dropped as inconsistent, the rest published', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXUSAIRANAGREEMENT-27').yes_bid_dollars = '0.7000';
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['us-iran-nuclear-deal-2026']).toEqual(['Before April 2026', 'Before August 2026']);
    await reported('events', 'all', [
      { id: 'kalshi:KXUSAIRANAGREEMENT-27', class: 'inconsistent', reason: 'crossed book (bid 0.7 above ask 0.63)' },
      { id: 'us-iran-nuclear-deal-2026/Before 2027/kalshi', class: 'lost' },
    ]);
  });

  it('14. a NO ask that does not mirror the YES bid (asks summing far below 1): that market is dropped as inconsistent', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXIRANDEMOCRACY-27MAR01-T6').no_ask_dollars = '0.3000';
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('iran-democracy-index-2026');
    await reported('events', 'all', [
      // One book: the NO ask is 1 - the YES bid, so a NO ask of 0.30 beside a YES bid of 0.05 is a stale side.
      {
        id: 'kalshi:KXIRANDEMOCRACY-27MAR01-T6',
        class: 'inconsistent',
        reason: 'NO ask 0.3 does not mirror the YES bid 0.05 (1 - 0.05 = 0.95): one side is stale',
      },
      { id: 'iran-democracy-index-2026/Yes/kalshi', class: 'lost' },
      { id: 'iran-democracy-index-2026/No/kalshi', class: 'lost' },
    ]);
  });

  it('15. a venue that vanishes (Kalshi lists none of the markets): last good snapshot kept', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    replay.data.kalshiMarkets = [];
    await keptLastGood('events', 'all', run, good, 'quality', /venue kalshi vanished/);
  });

  it('16. a Kalshi 503 storm: last good snapshot kept, failure counted as http', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    replay.fault({ prefix: '/kalshi', status: 503, times: 3, headers: { 'retry-after': '0' } });
    await keptLastGood('events', 'all', run, good, 'http', /kalshi: HTTP 503 from .*: \{"error":"injected"\}/);
  });

  it('17. a Kalshi 429 with a long Retry-After: kept; the next refresh makes no call before it ends', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    replay.fault({ prefix: '/kalshi', status: 429, headers: { 'retry-after': '600' } });
    await keptLastGood('events', 'all', run, good, 'http', /kalshi: HTTP 429/);
    const calls = replay.requests.filter((r) => r.startsWith('/kalshi')).length;
    tick();
    await expect(run()).rejects.toThrow(/kalshi: asked to retry after/);
    expect(replay.requests.filter((r) => r.startsWith('/kalshi'))).toHaveLength(calls);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({ failures: 2, lastReason: 'backoff' });
  });

  it('18. a Kalshi body that is not its documented envelope: kept, failure counted as shape', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    replay.fault({ prefix: '/kalshi/markets', status: 200 });
    await keptLastGood('events', 'all', run, good, 'shape', /\/markets envelope/);
  });
});

describe('drift corpus: item classes on Kalshi + Polymarket events', () => {
  const setPrices = (ticker: string, p: Record<string, string>) => Object.assign(kalshiMarket(ticker), p);

  it('28. duplicate: a Kalshi ticker listed twice with conflicting prices: both copies dropped, nothing priced from either', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    replay.data.kalshiMarkets.push({ ...kalshiMarket('KXRECOGPERSONIRAN-26'), yes_ask_dollars: '0.9000' });
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('us-recognizes-reza-pahlavi-2026');
    await reported('events', 'all', [
      { id: 'kalshi:KXRECOGPERSONIRAN-26', class: 'duplicate', reason: /with different contents: dropped every copy/ },
      { id: 'us-recognizes-reza-pahlavi-2026/Yes/kalshi', class: 'lost' },
    ]);
  });

  it('29. duplicate: a Gamma market listed twice, identical: one kept, the same snapshot, reported', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    const ev = gammaEvent('iran-x-israelus-conflict-ends-by');
    ev.markets.push({ ...gammaMarket('iran-x-israelus-conflict-ends-by-march-15') });
    await tolerated('events', 'all', run, good);
    await reported('events', 'all', [
      { id: 'polymarket:iran-x-israelus-conflict-ends-by-march-15', class: 'duplicate', reason: /identical: kept one/ },
    ]);
  });

  it('30. inconsistent: Kalshi Yes and No asks summing above the bound: that pair dropped', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    // A mirrored but absurdly wide book (bids 0.20, asks 0.80 on both sides).
    setPrices('KXIRANDEMOCRACY-27MAR01-T6', {
      yes_bid_dollars: '0.2000',
      no_bid_dollars: '0.2000',
      yes_ask_dollars: '0.8000',
      no_ask_dollars: '0.8000',
    });
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('iran-democracy-index-2026');
    await reported('events', 'all', [
      {
        id: 'iran-democracy-index-2026/kalshi',
        class: 'inconsistent',
        reason: `asks 0.8 + 0.8 sum above ${DEFAULT_QUALITY.maxAskSum}`,
      },
    ]);
  });

  it('31. lost: a Gamma market closed early is listed as lost, and stays listed but is logged and counted once while it lasts', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-7').closed = true;
    const counted = () => metric(itemsDroppedTotal, { kind: 'events', key: 'all', class: 'lost' });
    const before = await counted();
    expect(await run()).toMatchObject({ version: 2 });
    const lost = {
      id: 'iran-israel-us-conflict-ends-march-2026/By March 7/polymarket',
      class: 'lost',
      reason: 'quoted in the last good snapshot, absent now',
    };
    await reported('events', 'all', [lost]);
    expect(await counted()).toBe(before + 1);
    tick();
    expect(await run()).toEqual({ version: 0, endedFailures: 0 });
    expect((await readMeta(redis.client, 'events', 'all'))!.dropped!.items).toContainEqual(
      expect.objectContaining(lost),
    );
    expect(lines.filter((l) => l.msg === DROP_LOG)).toHaveLength(1);
    expect(await counted()).toBe(before + 1);
  });

  it('32. held: a Kalshi price jumping 0.27 → 0.90 with no new volume is held at 0.27 until the move persists', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    const price = async () =>
      (await readSnapshot(redis.client, 'events', 'all'))!.data.events.find(
        (e) => e.slug === 'us-recognizes-reza-pahlavi-2026',
      )!.outcomes[0]!.quotes[0]!.yesPrice;
    const was = await price();
    setPrices('KXRECOGPERSONIRAN-26', {
      yes_bid_dollars: '0.8900',
      yes_ask_dollars: '0.9000',
      no_bid_dollars: '0.1000',
      no_ask_dollars: '0.1100',
    });
    await tolerated('events', 'all', run, good);
    await reported('events', 'all', [
      {
        id: 'us-recognizes-reza-pahlavi-2026/Yes/kalshi',
        class: 'held',
        reason: `price ${was} → 0.9 without new volume: held at ${was}`,
      },
      { id: 'us-recognizes-reza-pahlavi-2026/No/kalshi', class: 'held' },
    ]);
    clock = new Date(clock.getTime() + DEFAULT_QUALITY.jumpHoldMs);
    expect(await run()).toMatchObject({ version: 2 });
    expect(await price()).toBe(0.9);
  });

  it('33. held (control): the same jump with new volume is a real move, published at once', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    setPrices('KXRECOGPERSONIRAN-26', {
      yes_bid_dollars: '0.8900',
      yes_ask_dollars: '0.9000',
      no_bid_dollars: '0.1000',
      no_ask_dollars: '0.1100',
      volume_24h_fp: '90000.00',
    });
    expect(await run()).toMatchObject({ version: 2 });
    expect((await readMeta(redis.client, 'events', 'all'))!.dropped).toEqual({ count: 0, items: [] });
  });

  it('34. unit: one Kalshi market priced in cents: dropped and reported, never read as "no order"', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    setPrices('KXRECOGPERSONIRAN-26', {
      yes_bid_dollars: '25.0000',
      yes_ask_dollars: '27.0000',
      no_bid_dollars: '73.0000',
      no_ask_dollars: '75.0000',
      last_price_dollars: '28.0000',
    });
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('us-recognizes-reza-pahlavi-2026');
    await reported('events', 'all', [
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26',
        class: 'unit',
        reason: 'yes_bid_dollars 25.0000 outside [0, 1]: price unit changed',
      },
      { id: 'us-recognizes-reza-pahlavi-2026/No/kalshi', class: 'lost' },
    ]);
  });

  it('35. unit: one Gamma market priced in percent: dropped and reported', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    Object.assign(gammaMarket('iran-x-israelus-conflict-ends-by-march-15'), { bestBid: 23, bestAsk: 24 });
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 7', 'By March 31']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-15',
        class: 'unit',
        reason: 'bestBid 23 outside [0, 1]: price unit changed',
      },
    ]);
  });

  it('36. field (invariant 6): a negative Kalshi volume costs only the volume: unknown (null), the price still published', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXUSAIRANAGREEMENT-27').volume_24h_fp = '-9380.00';
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).toEqual(BASE_EVENTS);
    expect(await quoteOf('us-iran-nuclear-deal-2026', 'Before 2027', 'kalshi')).toMatchObject({
      yesPrice: 0.63,
      volume24hUsd: null,
    });
    await reported('events', 'all', [
      {
        id: 'kalshi:KXUSAIRANAGREEMENT-27/volume_24h_fp',
        class: 'field',
        reason: 'volume_24h_fp "-9380.00" is not a non-negative number: shown as unknown, prices kept',
      },
    ]);
  });

  it('37. field (invariant 6): a negative Gamma volume costs only the volume', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-31').volume24hr = -1;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).toEqual(BASE_EVENTS);
    expect(await quoteOf('iran-israel-us-conflict-ends-march-2026', 'By March 31', 'polymarket')).toMatchObject({
      yesPrice: 0.64,
      volume24hUsd: null,
    });
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-31/volume24hr',
        class: 'field',
        reason: /^volume24hr -1 is not a non-negative number/,
      },
    ]);
  });
});

describe('drift corpus: invariants on Kalshi + Polymarket events (docs/sources.md)', () => {
  const swapPrices = (a: Obj, b: Obj) => {
    for (const k of ['yes_bid_dollars', 'yes_ask_dollars', 'no_bid_dollars', 'no_ask_dollars', 'last_price_dollars'])
      [a[k], b[k]] = [b[k], a[k]];
  };

  it('49. freshness (1): a Gamma market whose record is three days old is withheld as stale; the fresh ones keep their own time', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    const stamp = new Date(clock.getTime() - 3 * 86_400_000).toISOString();
    gammaMarket('iran-x-israelus-conflict-ends-by-march-15').updatedAt = stamp;
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 7', 'By March 31']);
    expect((await quoteOf('iran-israel-us-conflict-ends-march-2026', 'By March 31', 'polymarket'))!.updatedAt).toBe(
      new Date(String(gammaMarket('iran-x-israelus-conflict-ends-by-march-31').updatedAt)).toISOString(),
    );
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-15',
        class: 'stale',
        reason: `record last updated ${stamp}, more than 60 min before it was read: its prices are withheld`,
      },
      { id: 'iran-israel-us-conflict-ends-march-2026/By March 15/polymarket', class: 'lost' },
    ]);
  });

  it('50. structure (4): a Kalshi NO ask gone stale (0.95 beside a YES bid of 0.25) drops that market, never moving its probability', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXRECOGPERSONIRAN-26').no_ask_dollars = '0.9500';
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('us-recognizes-reza-pahlavi-2026');
    await reported('events', 'all', [
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26',
        class: 'inconsistent',
        reason: 'NO ask 0.95 does not mirror the YES bid 0.25 (1 - 0.25 = 0.75): one side is stale',
      },
      { id: 'us-recognizes-reza-pahlavi-2026/No/kalshi', class: 'lost' },
    ]);
  });

  it('51. structure (4): two rungs of a deadline ladder swapping prices ("before April" 47¢, "before August" 19¢): both dropped', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    swapPrices(kalshiMarket('KXUSAIRANAGREEMENT-27-26APR'), kalshiMarket('KXUSAIRANAGREEMENT-27-26AUG'));
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['us-iran-nuclear-deal-2026']).toEqual(['Before 2027']);
    await reported('events', 'all', [
      {
        id: 'us-iran-nuclear-deal-2026/kalshi',
        class: 'inconsistent',
        reason:
          'ladder broken: "Before April 2026" bid 0.41 above "Before August 2026" ask 0.18 (an earlier deadline cannot be likelier)',
      },
      { id: 'us-iran-nuclear-deal-2026/Before April 2026/kalshi', class: 'lost' },
      { id: 'us-iran-nuclear-deal-2026/Before August 2026/kalshi', class: 'lost' },
    ]);
  });

  it('52. structure (4): a Polymarket ladder with "by March 15" dearer than "by March 31": both rungs dropped', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    Object.assign(gammaMarket('iran-x-israelus-conflict-ends-by-march-15'), {
      bestBid: 0.7,
      bestAsk: 0.71,
      outcomePrices: '["0.705", "0.295"]',
    });
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 7']);
    await reported('events', 'all', [
      {
        id: 'iran-israel-us-conflict-ends-march-2026/polymarket',
        class: 'inconsistent',
        reason:
          'ladder broken: "By March 15" bid 0.7 above "By March 31" ask 0.64 (an earlier deadline cannot be likelier)',
      },
    ]);
  });

  it('53. structure (4): Gamma outcome labels reordered while prices and token ids are not: that market dropped, never priced for the wrong side', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-7').outcomes = '["No", "Yes"]';
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 15', 'By March 31']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7',
        class: 'inconsistent',
        reason: 'outcome labels "yes", "no" now name the other token (labels reordered, tokens and prices not)',
      },
    ]);
  });

  it('54. structure (4): Gamma outcomePrices contradicting its book: that market dropped', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-31').outcomePrices = '["0.37", "0.63"]';
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 7', 'By March 15']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-31',
        class: 'inconsistent',
        reason: 'outcomePrices 0.37 of "Yes" lies outside its book (bid 0.62, ask 0.64)',
      },
    ]);
  });

  it('55. lifecycle (5): a month on, the recorded responses unchanged: "Before April 2026" (still "active") and the ended ladder are never shown', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    clock = new Date('2026-04-02T12:00:00.000Z');
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).toEqual({
      'us-iran-nuclear-deal-2026': ['Before August 2026', 'Before 2027'],
      'us-recognizes-reza-pahlavi-2026': ['Yes', 'No'],
      'iran-democracy-index-2026': ['Yes', 'No'],
    });
    await reported('events', 'all', [
      {
        id: 'kalshi:KXUSAIRANAGREEMENT-27-26APR',
        class: 'lifecycle',
        reason: 'status active but its close time 2026-04-01T14:00:00Z has passed: not shown',
      },
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-31',
        class: 'lifecycle',
        reason: /^status open but its close time 2026-04-01T00:00:00.000Z has passed/,
      },
    ]);
  });

  it('56. lifecycle (5): a Kalshi market settled (result "yes") while its status still says active: not shown', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    kalshiMarket('KXRECOGPERSONIRAN-26').result = 'yes';
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).not.toHaveProperty('us-recognizes-reza-pahlavi-2026');
    await reported('events', 'all', [
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26',
        class: 'lifecycle',
        reason: 'status active but settled (result yes): not shown',
      },
      { id: 'us-recognizes-reza-pahlavi-2026/Yes/kalshi', class: 'lost' },
    ]);
  });

  it('57. lifecycle (5): a Gamma market resolved (outcome prices 1 and 0) while still listed as trading: not shown', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    gammaMarket('iran-x-israelus-conflict-ends-by-march-7').outcomePrices = '["1", "0"]';
    expect(await run()).toMatchObject({ version: 2 });
    expect((await outcomeNames())['iran-israel-us-conflict-ends-march-2026']).toEqual(['By March 15', 'By March 31']);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7',
        class: 'lifecycle',
        reason: 'status open but settled (result Yes): not shown',
      },
    ]);
  });

  it('58. field (6): volume and open interest sent as "40,305.00": both unknown, the prices still published, the event still there', async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    Object.assign(kalshiMarket('KXRECOGPERSONIRAN-26'), { volume_24h_fp: '40,305.00', open_interest_fp: '149,059.00' });
    expect(await run()).toMatchObject({ version: 2 });
    expect(await outcomeNames()).toEqual(BASE_EVENTS);
    expect(await quoteOf('us-recognizes-reza-pahlavi-2026', 'Yes', 'kalshi')).toMatchObject({
      yesPrice: 0.27,
      volume24hUsd: null,
    });
    await reported('events', 'all', [
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26/volume_24h_fp',
        class: 'field',
        reason: 'volume_24h_fp "40,305.00" is not a non-negative number: shown as unknown, prices kept',
      },
      {
        id: 'kalshi:KXRECOGPERSONIRAN-26/open_interest_fp',
        class: 'field',
        reason: 'open_interest_fp "149,059.00" is not a non-negative number: shown as unknown, prices kept',
      },
    ]);
  });
});

const nbaBook = (i: number, key: string) =>
  (replay.data.nbaOdds[i]!.bookmakers as Obj[]).find((b) => b.key === key)! as Obj & { markets: Obj[] };
const market = (b: { markets: Obj[] }, key: string) =>
  b.markets.find((m) => m.key === key)! as Obj & { outcomes: Obj[] };
const gameId = (i: number) => String(replay.data.nbaOdds[i]!.id);
const gameOf = async (i: number) =>
  (await readSnapshot(redis.client, 'sportsbook', 'NBA'))!.data.upcoming.find((m) => m.id === gameId(i));
const bookOf = async (i: number, operatorId: string) =>
  (await gameOf(i))!.books.find((b) => b.operatorId === operatorId);

describe('drift corpus: volume and open-interest jumps (invariant 7)', () => {
  const volumeOf = async (slug: string, outcome: string, op: string) =>
    (await quoteOf(slug, outcome, op))!.volume24hUsd!;

  it('70. a Kalshi 24 h volume collapsing 99 % in one refresh is held at its last value and reported; the price stands', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    const was = await volumeOf('us-iran-nuclear-deal-2026', 'Before April 2026', 'kalshi');
    kalshiMarket('KXUSAIRANAGREEMENT-27-26APR').volume_24h_fp = '908.06';
    await tolerated('events', 'all', run, good);
    await reported('events', 'all', [
      {
        id: 'kalshi:KXUSAIRANAGREEMENT-27-26APR/volume24hUsd',
        class: 'held',
        reason: new RegExp(`^24 h volume ${was} → [\\d.]+ in one refresh \\(beyond x4\\): held at ${was}$`),
      },
    ]);
  });

  it('71. a Gamma 24 h volume spiking fifty-fold is held, then accepted once it has lasted an hour', async () => {
    const run = eventsJob();
    const good = await baseline('events', 'all', run);
    const was = await volumeOf('iran-israel-us-conflict-ends-march-2026', 'By March 7', 'polymarket');
    const m = gammaMarket('iran-x-israelus-conflict-ends-by-march-7');
    m.volume24hr = Number(m.volume24hr) * 50;
    await tolerated('events', 'all', run, good);
    await reported('events', 'all', [
      {
        id: 'polymarket:iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7/volume24hUsd',
        class: 'held',
        reason: /^24 h volume [\d.]+ → [\d.]+ in one refresh \(beyond x4\): held at [\d.]+$/,
      },
    ]);
    clock = new Date(clock.getTime() + FIGURE_HOLD_MS);
    expect(await run()).toMatchObject({ version: 2 });
    expect(await volumeOf('iran-israel-us-conflict-ends-march-2026', 'By March 7', 'polymarket')).toBeGreaterThan(
      was * 40,
    );
  });

  it("72. a Kalshi open interest multiplied a hundred-fold is held: the derived metrics keep the venue's last figure", async () => {
    const run = eventsJob();
    await baseline('events', 'all', run);
    const metricsRun = refreshMetrics(
      deps(),
      createDerivedMetricsSource({ events: async () => run.source.last()!, leagues: () => [] }),
    );
    const kalshiOi = async () =>
      (await readSnapshot(redis.client, 'metrics', 'all'))!.data.operators.find((o) => o.operatorId === 'kalshi')!
        .openInterestUsd;
    expect(await metricsRun()).toMatchObject({ version: 1 });
    const was = await kalshiOi();
    const m = kalshiMarket('KXUSAIRANAGREEMENT-27-26APR');
    m.open_interest_fp = String(Number(m.open_interest_fp) * 100);
    expect(await run()).toMatchObject({ version: 0 });
    await reported('events', 'all', [
      {
        id: 'kalshi:KXUSAIRANAGREEMENT-27-26APR/openInterestUsd',
        class: 'held',
        reason: /^open interest [\d.]+ → [\d.]+ in one refresh \(beyond x4\): held at [\d.]+$/,
      },
    ]);
    expect(await metricsRun()).toMatchObject({ version: 0 });
    expect(await kalshiOi()).toBe(was);
  });
});

describe('drift corpus: The Odds API', () => {
  it('19. prices and points as strings: tolerated, same snapshot', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    for (const ev of replay.data.nbaOdds) {
      for (const b of ev.bookmakers as Array<{ markets: Array<{ outcomes: Obj[] }> }>) {
        for (const m of b.markets)
          for (const o of m.outcomes) {
            o.price = String(o.price);
            if (o.point !== undefined) o.point = String(o.point);
          }
      }
    }
    await tolerated('sportsbook', 'NBA', run, good);
  });

  it('20. one book quoting -4.5 on both sides: its spreads are dropped as inconsistent, the rest of the book kept', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const spreads = market(nbaBook(0, 'fanduel'), 'spreads');
    for (const o of spreads.outcomes) o.point = -4.5;
    expect(await run()).toMatchObject({ version: 2 });
    const fd = await bookOf(0, 'fanduel');
    expect(fd).not.toHaveProperty('homeSpread');
    expect(fd).toHaveProperty('homeMoneyline');
    await reported('sportsbook', 'NBA', [
      { id: `${gameId(0)}/fanduel/spreads`, class: 'inconsistent', reason: 'spreads -4.5 / -4.5 not opposite' },
      { id: `${gameId(0)}/fanduel/homeSpread`, class: 'lost' },
      { id: `${gameId(0)}/fanduel/awaySpread`, class: 'lost' },
    ]);
  });

  it("21. over and under at different totals: that book's totals are dropped as inconsistent", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const totals = market(nbaBook(1, 'draftkings'), 'totals');
    totals.outcomes.find((o) => o.name === 'Under')!.point = 250.5;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(1, 'draftkings')).not.toHaveProperty('totalOver');
    await reported('sportsbook', 'NBA', [
      {
        id: `${gameId(1)}/draftkings/totals`,
        class: 'inconsistent',
        reason: /over [\d.]+ and under 250.5 at different totals/,
      },
    ]);
  });

  it('22. quota exhausted (429, x-requests-remaining 0): kept; then no call until the block lapses', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    replay.oddsRemaining = 0;
    replay.requests.length = 0;
    await keptLastGood('sportsbook', 'NBA', run, good, 'http', /odds-api: HTTP 429/);
    const calls = replay.requests.length;
    tick();
    await expect(run()).rejects.toThrow(/odds-api: request quota exhausted/);
    expect(replay.requests).toHaveLength(calls);
    expect(await readMeta(redis.client, 'sportsbook', 'NBA')).toMatchObject({ failures: 2, lastReason: 'quota' });
  });

  it('23. 401 OUT_OF_USAGE_CREDITS without quota headers is recognised: no further calls', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    replay.fault({
      prefix: '/odds/v4/sports/basketball_nba/odds',
      status: 401,
      body: { message: 'Usage quota has been reached', error_code: 'OUT_OF_USAGE_CREDITS' },
    });
    await keptLastGood('sportsbook', 'NBA', run, good, 'http', /odds-api: HTTP 401 .*OUT_OF_USAGE_CREDITS/);
    const calls = replay.requests.length;
    tick();
    await expect(run()).rejects.toThrow(/request quota exhausted/);
    expect(replay.requests).toHaveLength(calls);
  });

  it('24. a game whose `bookmakers` is null: kept as a game without books, the rest unchanged', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const id = String(replay.data.nbaOdds[2]!.id);
    replay.data.nbaOdds[2]!.bookmakers = null;
    expect(await run()).toMatchObject({ version: 2 });
    const snap = (await readSnapshot(redis.client, 'sportsbook', 'NBA'))!;
    expect(snap.data.upcoming.map((m) => [m.id, m.books.length > 0])).toEqual([
      [String(replay.data.nbaOdds[0]!.id), true],
      [String(replay.data.nbaOdds[1]!.id), true],
      [id, false],
    ]);
  });
  it('38. duplicate: a game listed twice with conflicting odds: both copies dropped, its lines listed as lost', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const copy = structuredClone(replay.data.nbaOdds[2]!) as Obj & { bookmakers: Array<{ markets: Obj[] }> };
    (copy.bookmakers[0]!.markets[0]!.outcomes as Obj[])[0]!.price = 900;
    replay.data.nbaOdds.push(copy);
    expect(await run()).toMatchObject({ version: 2 });
    expect((await readSnapshot(redis.client, 'sportsbook', 'NBA'))!.data.upcoming.map((m) => m.id)).toEqual([
      gameId(0),
      gameId(1),
    ]);
    await reported('sportsbook', 'NBA', [
      { id: `odds-api:${gameId(2)}`, class: 'duplicate', reason: /different contents/ },
      { id: `${gameId(2)}/draftkings/homeMoneyline`, class: 'lost' },
    ]);
  });

  it('39. inconsistent: a book quoting both moneylines at +400: its moneylines dropped, never flagged best', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const o of market(nbaBook(0, 'fanduel'), 'h2h').outcomes) o.price = 400;
    expect(await run()).toMatchObject({ version: 2 });
    const fd = await bookOf(0, 'fanduel');
    expect(fd).not.toHaveProperty('homeMoneyline');
    expect(fd).not.toHaveProperty('awayMoneyline');
    await reported('sportsbook', 'NBA', [
      { id: `${gameId(0)}/fanduel/h2h`, class: 'inconsistent', reason: /^moneylines imply \d+ % in all/ },
    ]);
  });

  it("40. inconsistent: a spread giving points to the moneyline favourite: that book's moneylines and spreads dropped", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const o of market(nbaBook(1, 'fanduel'), 'spreads').outcomes) o.point = -Number(o.point);
    expect(await run()).toMatchObject({ version: 2 });
    expect(Object.keys((await bookOf(1, 'fanduel'))!)).toEqual(['operatorId', 'lastUpdate', 'totalOver', 'totalUnder']);
    await reported('sportsbook', 'NBA', [
      {
        id: `${gameId(1)}/fanduel/h2h+spreads`,
        class: 'inconsistent',
        reason: /moneyline favourite \(\d+ %\) receives points/,
      },
    ]);
  });

  it('41. inconsistent + lost: a renamed home team costs each book its home lines, each listed and the rename reported', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const home = String(replay.data.nbaOdds[0]!.home_team);
    for (const b of replay.data.nbaOdds[0]!.bookmakers as Array<{ markets: Array<{ outcomes: Obj[] }> }>) {
      for (const m of b.markets) for (const o of m.outcomes) if (o.name === home) o.name = `${home} FC`;
    }
    expect(await run()).toMatchObject({ version: 2 });
    const fd = await bookOf(0, 'fanduel');
    expect(fd).not.toHaveProperty('homeMoneyline');
    expect(fd).toHaveProperty('awayMoneyline');
    await reported('sportsbook', 'NBA', [
      {
        id: `odds-api:${gameId(0)}/fanduel/h2h`,
        class: 'inconsistent',
        reason: `outcome "${home} FC" names neither side of ${home} v ${String(replay.data.nbaOdds[0]!.away_team)}`,
      },
      { id: `${gameId(0)}/fanduel/homeMoneyline`, class: 'lost' },
      { id: `${gameId(0)}/fanduel/homeSpread`, class: 'lost' },
    ]);
  });

  it("42. lost: spread points turned null on one game: every book's spreads there listed, the rest published", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const b of replay.data.nbaOdds[0]!.bookmakers as Array<{ markets: Obj[] }>) {
      const spreads = b.markets.find((m) => m.key === 'spreads') as { outcomes: Obj[] } | undefined;
      for (const o of spreads?.outcomes ?? []) o.point = null;
    }
    expect(await run()).toMatchObject({ version: 2 });
    const games = (await readSnapshot(redis.client, 'sportsbook', 'NBA'))!.data.upcoming;
    expect(games[0]!.books.some((b) => b.homeSpread)).toBe(false);
    expect(games[1]!.books.some((b) => b.homeSpread)).toBe(true);
    await reported('sportsbook', 'NBA', [
      { id: `${gameId(0)}/draftkings/homeSpread`, class: 'lost' },
      { id: `${gameId(0)}/fanduel/awaySpread`, class: 'lost' },
      {
        id: `odds-api:${gameId(0)}/fanduel/spreads/${String(replay.data.nbaOdds[0]!.home_team)}`,
        class: 'schema',
        reason: 'line without its point',
      },
    ]);
  });

  it("43. held: every book's moneyline jumping far between refreshes is held at its last good value", async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    const was = await bookOf(0, 'fanduel');
    // Every book makes the home favourite -1500 (from about -155): the books agree, the favourite
    // stays, the spreads stand; only the move is implausible.
    const home = String(replay.data.nbaOdds[0]!.home_team);
    for (const b of replay.data.nbaOdds[0]!.bookmakers as Array<{ markets: Obj[] }>) {
      const h2h = b.markets.find((m) => m.key === 'h2h') as { outcomes: Obj[] } | undefined;
      for (const o of h2h?.outcomes ?? []) o.price = o.name === home ? -1500 : 900;
    }
    // Every book held: the snapshot stays as it was.
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: `${gameId(0)}/fanduel/h2h`,
        class: 'held',
        reason: `moneylines ${was!.homeMoneyline}/${was!.awayMoneyline} → -1500/900: held at ${was!.homeMoneyline}/${was!.awayMoneyline}`,
      },
    ]);
  });

  it("44. unit: one book's moneylines in decimal odds: dropped and reported, never filtered silently", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const h2h = market(nbaBook(0, 'fanduel'), 'h2h');
    for (const o of h2h.outcomes) o.price = Number(americanToDecimal(Number(o.price)).toFixed(2));
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(0, 'fanduel')).not.toHaveProperty('homeMoneyline');
    const home = String(replay.data.nbaOdds[0]!.home_team);
    await reported('sportsbook', 'NBA', [
      {
        id: `odds-api:${gameId(0)}/fanduel/h2h/${home}`,
        class: 'unit',
        reason: /^price [\d.]+ is not american odds: unit changed$/,
      },
      { id: `${gameId(0)}/fanduel/awayMoneyline`, class: 'lost' },
    ]);
  });

  it('45. future: a book stamped a day ahead of our clock is dropped from that game', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const stamp = new Date(Date.now() + 86_400_000).toISOString();
    nbaBook(0, 'fanduel').last_update = stamp;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(0, 'fanduel')).toBeUndefined();
    expect(await bookOf(1, 'fanduel')).toBeDefined();
    await reported('sportsbook', 'NBA', [
      { id: `odds-api:${gameId(0)}/fanduel`, class: 'future', reason: `last_update ${stamp} is in the future` },
      { id: `${gameId(0)}/fanduel/totalOver`, class: 'lost' },
    ]);
  });

  it('46. schema, per item: one outcome price turned boolean: that market of that book dropped, the rest published', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    market(nbaBook(2, 'fanduel'), 'totals').outcomes[0]!.price = true;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(2, 'fanduel')).not.toHaveProperty('totalOver');
    expect(await bookOf(2, 'fanduel')).toHaveProperty('homeSpread');
    await reported('sportsbook', 'NBA', [
      { id: `odds-api:${gameId(2)}/fanduel/totals`, class: 'schema', reason: /^outcomes\.0\.price: / },
    ]);
  });
});

describe('drift corpus: invariants on The Odds API (docs/sources.md)', () => {
  /** The provider's now in these cases (sportsbookJob stands its clock still). */
  const providerNow = () => replay.clock();
  const games = (i: number) =>
    replay.data.nbaOdds[i]! as Obj & { bookmakers: Array<Obj & { markets: Array<Obj & { outcomes: Obj[] }> }> };

  it('59. freshness (1): a book three days old among current ones is withheld as stale, never best', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const stamp = new Date(providerNow() - 3 * 86_400_000).toISOString();
    nbaBook(0, 'fanduel').last_update = stamp;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(0, 'fanduel')).toBeUndefined();
    expect(await bookOf(1, 'fanduel')).toBeDefined();
    await reported('sportsbook', 'NBA', [
      {
        id: `odds-api:${gameId(0)}/fanduel`,
        class: 'stale',
        reason: `last_update ${stamp} is 4320 min old (bound 30 min): lines withheld as stale`,
      },
      { id: `${gameId(0)}/fanduel/homeMoneyline`, class: 'lost' },
    ]);
  });

  it('60. freshness (1): a book 45 minutes behind the call is withheld, one 20 minutes behind is kept with its own time', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const old = new Date(providerNow() - 45 * 60_000).toISOString();
    const recent = new Date(providerNow() - 20 * 60_000).toISOString();
    nbaBook(1, 'draftkings').last_update = old;
    nbaBook(1, 'betmgm').last_update = recent;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(1, 'draftkings')).toBeUndefined();
    expect((await bookOf(1, 'betmgm'))!.lastUpdate).toBe(recent);
    await reported('sportsbook', 'NBA', [
      {
        id: `odds-api:${gameId(1)}/draftkings`,
        class: 'stale',
        reason: `last_update ${old} is 45 min old (bound 30 min): lines withheld as stale`,
      },
    ]);
  });

  it('61. consensus (2): one book flipping its favourite and spread against every other book: its moneylines and spreads withheld as outliers', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const o of market(nbaBook(1, 'fanduel'), 'spreads').outcomes) o.point = -Number(o.point);
    for (const o of market(nbaBook(1, 'fanduel'), 'h2h').outcomes) o.price = Number(o.price) < 0 ? 400 : -500;
    expect(await run()).toMatchObject({ version: 2 });
    expect(Object.keys((await bookOf(1, 'fanduel'))!)).toEqual(['operatorId', 'lastUpdate', 'totalOver', 'totalUnder']);
    await reported('sportsbook', 'NBA', [
      {
        id: `${gameId(1)}/fanduel/h2h`,
        class: 'outlier',
        reason:
          /^outlier: no-vig home probability 0\.8\d* against the other books' median 0\.3\d* \(gap 0\.\d+ > 0\.08\)$/,
      },
      {
        id: `${gameId(1)}/fanduel/spreads`,
        class: 'outlier',
        reason: "outlier: home spread -5 against the other books' median 5 (more than 3 points apart)",
      },
    ]);
  });

  it("62. consensus (2): one book's total ten points from the others: its totals withheld as an outlier", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const o of market(nbaBook(2, 'draftkings'), 'totals').outcomes) o.point = 248;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(2, 'draftkings')).not.toHaveProperty('totalOver');
    expect(await bookOf(2, 'draftkings')).toHaveProperty('homeMoneyline');
    await reported('sportsbook', 'NBA', [
      {
        id: `${gameId(2)}/draftkings/totals`,
        class: 'outlier',
        reason: "outlier: total 248 against the other books' median 238 (more than 6 points apart)",
      },
    ]);
  });

  it('63. identity (3): home and away swapped on one game: refused, the last good game kept and reported', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    const g = games(0);
    [g.home_team, g.away_team] = [g.away_team, g.home_team];
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: gameId(0),
        class: 'identity',
        reason: `home and away swapped (was ${String(g.home_team)} at ${String(g.away_team)}): last good version kept`,
      },
    ]);
  });

  it("64. identity (3): every book's outcome names swapped on one game (the underdog made favourite): refused, the last good game kept", async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    const g = games(0);
    const swap = (n: unknown) => (n === g.home_team ? g.away_team : n === g.away_team ? g.home_team : n);
    for (const b of g.bookmakers) for (const m of b.markets) for (const o of m.outcomes) o.name = swap(o.name);
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: gameId(0),
        class: 'identity',
        reason:
          /^favourite changed sides: the books' no-vig chance of the home side went from 0\.5\d* to 0\.4\d*: last good version kept$/,
      },
    ]);
  });

  it('65. identity (3): a college game inside the NBA list is refused, never shown as the NBA matchup', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    replay.data.nbaOdds.unshift({
      ...structuredClone(games(2)),
      id: 'ncaab-duke-unc',
      sport_key: 'basketball_ncaab',
      home_team: 'Duke Blue Devils',
      away_team: 'North Carolina Tar Heels',
    });
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: 'odds-api:ncaab-duke-unc',
        class: 'identity',
        reason: 'sport_key basketball_ncaab in the NBA list (basketball_nba)',
      },
    ]);
  });

  it('66. identity (3): the same game under a second id, listed first with older lines: the id the last good snapshot knows is kept', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    const real = gameId(0);
    const copy = { ...structuredClone(games(0)), id: 'second-id-of-game-0' } as ReturnType<typeof games>;
    for (const b of copy.bookmakers) {
      b.last_update = new Date(providerNow() - 20 * 60_000).toISOString();
      for (const m of b.markets)
        if (m.key === 'h2h')
          for (const o of m.outcomes) o.price = Number(o.price) < 0 ? Number(o.price) - 20 : Number(o.price) + 20;
    }
    replay.data.nbaOdds.unshift(copy);
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: 'second-id-of-game-0',
        class: 'duplicate',
        reason: new RegExp(
          `^the same game as ${real} \\(Los Angeles Lakers at Orlando Magic, starting .+\\): kept ${real}, the id the last good snapshot knows$`,
        ),
      },
    ]);
  });

  it('67. identity (3): a start moved two days: refused, the last good game kept', async () => {
    const run = sportsbookJob();
    const good = await baseline('sportsbook', 'NBA', run);
    const was = (await gameOf(2))!.scheduledTime;
    games(2).commence_time = new Date(Date.parse(String(games(2).commence_time)) + 2 * 86_400_000).toISOString();
    await tolerated('sportsbook', 'NBA', run, good);
    await reported('sportsbook', 'NBA', [
      {
        id: gameId(2),
        class: 'identity',
        reason: new RegExp(`^start moved from ${was} to .+: last good version kept$`),
      },
    ]);
  });

  it("68. structure (4): totals sent in tenths (236.5 as 2365) on one game: each book's totals dropped as out of range, never shown", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const b of games(0).bookmakers)
      for (const m of b.markets) if (m.key === 'totals') for (const o of m.outcomes) o.point = Number(o.point) * 10;
    expect(await run()).toMatchObject({ version: 2 });
    expect((await gameOf(0))!.books.some((b) => b.totalOver)).toBe(false);
    expect((await gameOf(1))!.books.some((b) => b.totalOver)).toBe(true);
    await reported('sportsbook', 'NBA', [
      { id: `${gameId(0)}/draftkings/totals`, class: 'range', reason: "total 2365 outside the league's range 150-300" },
      { id: `${gameId(0)}/fanduel/totals`, class: 'range', reason: "total 2360 outside the league's range 150-300" },
    ]);
  });

  /** The sportsbook widget of game `i` for a New Jersey visitor, built by the real builder from the published snapshot. */
  const njWidget = async (i: number, format: 'american' | 'decimal') => {
    const snap = (await readSnapshot(redis.client, 'sportsbook', 'NBA'))!;
    const view = catalogView('US-NJ');
    const ctx: WidgetContext = {
      ...view,
      clickUrl: () => 'https://predictwire.test/v1/click?drift',
      impressionUrl: () => null,
      linkExpiresAt: 0,
      impressionId: 'drift',
    };
    return buildSportsbookWidget(snap.data, (await gameOf(i))!, ctx, format).odds_matrix.operators;
  };
  /** Nothing was dropped, logged or counted: the figures are what the books sent. */
  const nothingDropped = async () => {
    expect((await readMeta(redis.client, 'sportsbook', 'NBA'))!.dropped).toEqual({ count: 0, items: [] });
    expect(lines.filter((l) => l.msg === DROP_LOG)).toEqual([]);
    for (const c of ['outlier', 'stale', 'identity', 'range'])
      expect(await metric(itemsDropped, { kind: 'sportsbook', key: 'NBA', class: c })).toBe(0);
  };
  const leaders = (rows: Awaited<ReturnType<typeof njWidget>>, key: string) =>
    rows
      .filter((r) => (r.best_odds as string[]).includes(key))
      .map((r) => r.name)
      .sort();

  it('78. best odds (9): two books at -154 and -155 both show 1.65 in decimal odds: both flagged there, only the better one in American odds', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    const home = String(games(0).home_team);
    market(nbaBook(0, 'draftkings'), 'h2h').outcomes.find((o) => o.name === home)!.price = -154;
    market(nbaBook(0, 'fanduel'), 'h2h').outcomes.find((o) => o.name === home)!.price = -155;
    expect(await run()).toMatchObject({ version: 2 });
    await nothingDropped();
    const decimal = await njWidget(0, 'decimal');
    expect(
      decimal.filter((r) => ['DraftKings', 'FanDuel'].includes(r.name)).map((r) => r.lines.home_moneyline),
    ).toEqual(['1.65', '1.65']);
    expect(leaders(decimal, 'home_moneyline')).toEqual(['DraftKings', 'FanDuel']);
    expect(leaders(await njWidget(0, 'american'), 'home_moneyline')).toEqual(['DraftKings']);
  });

  it('79. best odds (9): the best total shown alike by two books (237.5 at -107 and -108, both 1.93): both flagged in decimal odds', async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const [key, price] of [
      ['draftkings', -107],
      ['fanduel', -108],
    ] as const) {
      for (const o of market(nbaBook(2, key), 'totals').outcomes) Object.assign(o, { point: 237.5, price });
    }
    expect(await run()).toMatchObject({ version: 2 });
    await nothingDropped();
    const decimal = await njWidget(2, 'decimal');
    expect(
      decimal.filter((r) => (r.best_odds as string[]).includes('total_over')).map((r) => r.lines.total_over),
    ).toEqual([
      { line: '237.5', odds: '1.93' },
      { line: '237.5', odds: '1.93' },
    ]);
    expect(leaders(decimal, 'total_over')).toEqual(['DraftKings', 'FanDuel']);
    expect(leaders(await njWidget(2, 'american'), 'total_over')).toEqual(['DraftKings']);
  });

  it("69. structure (4): a spread of 45 points: that book's spreads dropped as out of range", async () => {
    const run = sportsbookJob();
    await baseline('sportsbook', 'NBA', run);
    for (const o of market(nbaBook(1, 'fanduel'), 'spreads').outcomes) o.point = Number(o.point) > 0 ? 45 : -45;
    expect(await run()).toMatchObject({ version: 2 });
    expect(await bookOf(1, 'fanduel')).not.toHaveProperty('homeSpread');
    await reported('sportsbook', 'NBA', [
      { id: `${gameId(1)}/fanduel/spreads`, class: 'range', reason: "spread 45 beyond the league's ±30" },
    ]);
  });
});

describe('drift corpus: a live market with nothing to show (invariant 10)', () => {
  /**
   * Live markets have no refresh job: the feed's quote sources publish each venue's quote, and the API
   * builds the payload from them. These cases run the real Kalshi 15-minute source against the replay
   * (its documented-shape market) and the real builder for a New Jersey visitor; nothing is dropped,
   * so what they assert is the payload, and the reason it gives.
   */
  // One instant for the case: the source, the venue's answers and the builder all read it.
  let t0 = Date.now();
  const kalshiQuoteOf = async (book: { yesBid: string; yesAsk: string; noBid: string; noAsk: string }) => {
    t0 = Date.now();
    replay.clock = () => t0;
    replay.data.kalshiMarkets.push(
      kalshi15mMarket({ series: 'KXBTC15M', windowStartMs: windowAt(t0, 15).startMs, floorStrike: 97_012.55, ...book }),
    );
    const quotes: VenueQuoteMessage[] = [];
    const source = createKalshiCrypto15m({
      client: new KalshiClient({ baseUrl: `${replay.base}/kalshi`, resilience: FAST }),
      log,
      pollMs: 60_000,
      now: () => t0,
    });
    await source.start({ put: (q) => quotes.push(q), drop: () => undefined });
    await expect.poll(() => quotes.find((q) => q.asset === 'BTC'), { timeout: 5_000 }).toBeDefined();
    await source.stop();
    return quotes.find((q) => q.asset === 'BTC')!;
  };
  const payload = (horizon: 5 | 15, quotes: VenueQuoteMessage[]) => {
    const now = t0;
    const w = windowAt(now, horizon);
    const view: LiveView = {
      asset: 'BTC',
      horizon,
      window: w,
      strike: 97_012.55,
      strikeStatus: 'set',
      spot: 97_020,
      lastTickMs: now,
      variance: 1e-8,
      quotes,
      path: [[w.startMs, 97_012.55]],
    };
    const ctx: WidgetContext = {
      ...catalogView('US-NJ'),
      clickUrl: () => 'https://predictwire.test/v1/click?drift',
      impressionUrl: () => null,
      linkExpiresAt: 0,
      impressionId: 'drift',
    };
    return LiveMarketPayload.parse(
      buildLiveMarketWidget(
        view,
        now,
        { refreshIntervalSeconds: 1, staleAfterMs: 30_000, venues: LIVE_VENUES, modelMissingVenues: false },
        ctx,
      ),
    );
  };

  it("80. Kalshi's 15-minute book emptied (asks 0): no venue shown, and the payload says none is quoting", async () => {
    const quote = await kalshiQuoteOf({ yesBid: '0.0000', yesAsk: '0.0000', noBid: '0.0000', noAsk: '0.0000' });
    expect(quote).toMatchObject({ up: null, down: null });
    const p = payload(15, [quote]);
    expect([p.providers_pool, p.unavailable_venues.map((v) => v.operator_id), p.unavailable_reason]).toEqual([
      [],
      ['kalshi'],
      'no_quote',
    ]);
  });

  it('81. the 5-minute window, which only unlicensed venues list: nothing shown in New Jersey, and the payload says none is lawful there', async () => {
    const quote = await kalshiQuoteOf({ yesBid: '0.5100', yesAsk: '0.5300', noBid: '0.4700', noAsk: '0.4900' });
    const fifteen = payload(15, [quote]);
    expect([fifteen.providers_pool.map((e) => [e.operator_id, e.updated_at]), fifteen.unavailable_reason]).toEqual([
      [['kalshi', quote.venueTs]],
      null,
    ]);
    const five = payload(5, [quote]);
    expect([five.providers_pool, five.unavailable_venues, five.unavailable_reason]).toEqual([
      [],
      [],
      'not_lawful_here',
    ]);
  });
});

describe('drift corpus: ECB reference rates', () => {
  it('25. a stale fixing (older than a few days): last good snapshot kept', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace("time='2025-05-09'", "time='2025-05-02'");
    await keptLastGood('fx', 'daily', run, good, 'quality', /fixing of 2025-05-02 is older than 5 days/);
  });

  it('26. an absurd rate (USD per EUR x 10): last good snapshot kept', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace(
      /currency='USD' rate='([\d.]+)'/,
      (_, r: string) => `currency='USD' rate='${Number(r) * 10}'`,
    );
    await keptLastGood('fx', 'daily', run, good, 'quality', /EUR moved 90 %/);
  });

  it('27. a file without the USD row: last good snapshot kept, failure counted as shape', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace(/<Cube currency='USD'[^>]*\/>/, '');
    await keptLastGood('fx', 'daily', run, good, 'shape', /no USD rate/);
  });
  const rowOf = (code: string) => new RegExp(`<Cube currency='${code}' rate='([\\d.]+)'/>`);
  const scaleRow = (code: string, factor: number) => {
    replay.data.ecbXml = replay.data.ecbXml.replace(
      rowOf(code),
      (_, r: string) => `<Cube currency='${code}' rate='${(Number(r) * factor).toFixed(4)}'/>`,
    );
  };

  it('73. FX (8): a currency listed twice with different rates (the second 7.4 % higher): the fixing is refused', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace(
      rowOf('GBP'),
      (row, r: string) => `${row}<Cube currency='GBP' rate='${(Number(r) * 1.074).toFixed(5)}'/>`,
    );
    await keptLastGood(
      'fx',
      'daily',
      run,
      good,
      'quality',
      /GBP listed 2 times with different rates \(0\.8477, 0\.91043\): fixing refused/,
    );
  });

  it('74. FX (8): a currency row sent twice, identical: kept once, reported, the same snapshot', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace(rowOf('JPY'), (row) => `${row}${row}`);
    await tolerated('fx', 'daily', run, good);
    await reported('fx', 'daily', [
      { id: 'ecb:JPY', class: 'duplicate', reason: 'listed 2 times, identical: kept one' },
    ]);
  });

  it('75. FX (8): the USD row 8 % off (every rate moving about 8.7 %, by one factor): the fixing is refused', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    scaleRow('USD', 1.08);
    await keptLastGood(
      'fx',
      'daily',
      run,
      good,
      'quality',
      /every rate moved by one factor \(x0\.925\d per USD, 30 of 30 currencies within 0\.5 % of it\): the USD row is suspect/,
    );
  });

  it('76. FX (8): the USD row 3 % off, under the per-rate bound: refused all the same, every rate moving by one factor', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    scaleRow('USD', 1.03);
    await keptLastGood(
      'fx',
      'daily',
      run,
      good,
      'quality',
      /^quality gate: every rate moved by one factor \(x0\.97\d+ per USD/,
    );
  });

  it('77. FX (8): one rate moving 7.4 % in a day: beyond the realistic daily bound, refused', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    scaleRow('GBP', 1.074);
    await keptLastGood(
      'fx',
      'daily',
      run,
      good,
      'quality',
      /^quality gate: GBP moved 7\.4 % \(0\.753377 → 0\.8091\d*; bound 5 %\)$/,
    );
  });

  it('47. future: a fixing dated tomorrow: last good snapshot kept', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace("time='2025-05-09'", "time='2025-05-11'");
    await keptLastGood('fx', 'daily', run, good, 'quality', /fixing of 2025-05-11 is dated in the future/);
  });

  it('48. future: a fixing dated a year ahead: last good snapshot kept', async () => {
    const run = fxJob();
    const good = await baseline('fx', 'daily', run);
    replay.data.ecbXml = replay.data.ecbXml.replace("time='2025-05-09'", "time='2026-05-08'");
    await keptLastGood('fx', 'daily', run, good, 'quality', /fixing of 2026-05-08 is dated in the future/);
  });
});
