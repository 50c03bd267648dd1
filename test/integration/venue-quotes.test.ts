/**
 * The venue quote sources in the feed process, against local replays of Gamma, Kalshi's REST API
 * and Polymarket's CLOB market channel (documented-shape templates and the recorded CLOB book),
 * through real Redis: the asks and strikes each venue publishes, read back from the pw:quote keys
 * and the pw:quotes channel; a window roll; a reconnect; missing, empty and crossed books. The feed
 * runs on a manual clock (test/support/manual-clock.ts): its pings, silence watchdog, reconnects
 * and polls fire as the test moves time, never after a wait on the wall clock.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { VenueQuoteMessage } from '../../src/model/index.js';
import { quoteKey } from '../../src/store/keys.js';
import { startFeed } from '../../workers/feed/feed.js';
import { RECORDED_PRICE_CHANGE } from '../support/clob-ws-replay.js';
import { ManualClock } from '../support/manual-clock.js';
import { useRedis } from '../support/redis.js';
import { listKalshi15m, listUpDown, startVenueReplay, type VenueReplay } from '../support/venue-replay.js';

const redis = useRedis();
const log = pino({ level: 'silent' });

const T0 = Date.parse('2026-11-22T14:00:00Z');
const T1 = T0 + 15 * 60_000;
// The recorded book's token is BTC's 15-minute "Up" in the first window: its asks start at 0.08.
const UP0 = (RECORDED_PRICE_CHANGE.price_changes as { asset_id: string }[])[0]!.asset_id;
const DOWN0 = '48331043336612883890938759509493159234755048973500640148014422747788308965732';
const UP1 = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const DOWN1 = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
const level = (price: string) => ({ price, size: '100' });
/** KALSHI_QUOTES_POLL_MS of the venue replay's settings. */
const KALSHI_POLL_MS = 250;
/** The CLOB socket's silence limit and ping interval (src/sources/polymarket/updown-source.ts). */
const SILENCE_MS = 10_000;
const PING_MS = 5_000;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await redis.client.flushall();
});

const book = (bids: string[], asks: string[]) => ({ bids: bids.map((p) => level(p)), asks: asks.map((p) => level(p)) });

interface Setup {
  clock: ManualClock;
  http: VenueReplay['http'];
  clob: VenueReplay['clob'];
}

/** Lists the windows, serves their books and starts the feed with quotes=venues at T0 + 1 min. */
async function venues(): Promise<Setup> {
  const clock = new ManualClock(T0 + 60_000);
  // The venues' clock agrees with ours: their books and answers are stamped with it.
  const r = await startVenueReplay(clock.now);
  cleanups.push(() => r.stop());

  listUpDown(
    r,
    { asset: 'BTC', horizonMinutes: 15, windowStartMs: T0, upToken: UP0, downToken: DOWN0, priceToBeat: 97005.12 },
    { up: 'recorded', down: book(['0.91'], ['0.95', '0.93']) },
  );
  listUpDown(
    r,
    { asset: 'BTC', horizonMinutes: 15, windowStartMs: T1, upToken: UP1, downToken: DOWN1 },
    { up: book(['0.49'], ['0.53', '0.52']), down: book(['0.48'], ['0.5']) },
  );
  // An empty ask side on "Up": the venue cannot be bought.
  listUpDown(
    r,
    { asset: 'ETH', horizonMinutes: 5, windowStartMs: T0, upToken: 'eth5-up', downToken: 'eth5-down' },
    { up: book(['0.4'], []), down: book(['0.39'], ['0.61']) },
  );
  // Listed, but the channel never sends a book for its tokens.
  listUpDown(
    r,
    {
      asset: 'SOL',
      horizonMinutes: 15,
      windowStartMs: T0,
      upToken: 'sol15-up',
      downToken: 'sol15-down',
      priceToBeat: 186.4,
    },
    { up: null, down: null },
  );

  listKalshi15m(r, {
    series: 'KXBTC15M',
    windowStartMs: T0,
    floorStrike: 97012.55,
    yesBid: '0.5100',
    yesAsk: '0.5300',
    noBid: '0.4700',
    noAsk: '0.4900',
  });
  listKalshi15m(r, {
    series: 'KXBTC15M',
    windowStartMs: T1,
    floorStrike: 97101.3,
    yesBid: '0.4400',
    yesAsk: '0.4600',
    noBid: '0.5400',
    noAsk: '0.5600',
  });
  // Crossed: the YES bid is above the YES ask.
  listKalshi15m(r, {
    series: 'KXETH15M',
    windowStartMs: T0,
    floorStrike: 3401.2,
    yesBid: '0.5500',
    yesAsk: '0.5400',
    noBid: '0.4500',
    noAsk: '0.4600',
  });

  const feed = await startFeed(loadConfig({ REDIS_URL: redis.url, SOURCES: 'quotes=venues', ...r.env }), log, {
    now: clock.now,
    timers: clock.timers,
  });
  cleanups.push(() => feed.stop());
  return { clock, http: r.http, clob: r.clob };
}

async function quote(asset: string, h: number, operator: string): Promise<VenueQuoteMessage | undefined> {
  const raw = await redis.client.get(quoteKey(asset, h, operator));
  return raw === null ? undefined : VenueQuoteMessage.parse(JSON.parse(raw));
}

/** Every message on pw:quotes:{asset}, validated against the wire contract. */
async function listen(asset: string): Promise<VenueQuoteMessage[]> {
  const sub = new Redis(redis.url);
  cleanups.push(() => sub.disconnect());
  const got: VenueQuoteMessage[] = [];
  sub.on('message', (_channel: string, message: string) => got.push(VenueQuoteMessage.parse(JSON.parse(message))));
  await sub.subscribe(`pw:quotes:${asset}`);
  return got;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Each read `step` ms later than the last: for what waits on a timer (a poll, a reconnect), polled until it shows. */
const moving =
  <T>(clock: ManualClock, read: () => T | Promise<T>, step = KALSHI_POLL_MS) =>
  async () => {
    await clock.advance(step);
    return read();
  };

describe('venue quote sources (quotes=venues)', () => {
  it('refuses a quotes source it does not have', async () => {
    await expect(startFeed(loadConfig({ REDIS_URL: redis.url, SOURCES: 'quotes=nope' }), log)).rejects.toThrow(
      'no quotes source "nope" (available: simulator, venues)',
    );
  });

  it("publishes each venue's own best asks and strike, and nothing for a venue without a quote", async () => {
    const btc = await listen('BTC');
    const { clob } = await venues();

    await expect
      .poll(() => quote('BTC', 15, 'polymarket'), { timeout: 10_000 })
      .toEqual({
        asset: 'BTC',
        horizonMinutes: 15,
        operatorId: 'polymarket',
        windowStart: iso(T0),
        expiresAt: iso(T1),
        up: 0.08, // the recorded book's lowest ask
        down: 0.93,
        strike: 97005.12,
        marketUrl: `https://polymarket.com/event/btc-updown-15m-${T0 / 1000}`,
        ts: iso(T0 + 60_000),
        venueTs: iso(T0 + 60_000), // the book's own stamp, as the venue sent it
        source: 'polymarket-clob',
      });
    await expect
      .poll(() => quote('BTC', 15, 'kalshi'), { timeout: 10_000 })
      .toMatchObject({
        windowStart: iso(T0),
        expiresAt: iso(T1),
        up: 0.53,
        down: 0.49,
        strike: 97012.55,
        marketUrl: 'https://kalshi.com/events/KXBTC15M-26NOV220915',
        // The venue's Date header has whole seconds.
        venueTs: iso(T0 + 60_000),
      });
    // One connection subscribed to the current and next windows' tokens of every listed event.
    expect(clob.subscriptions).toEqual([
      [UP0, UP1, DOWN1, DOWN0, 'eth5-down', 'eth5-up', 'sol15-down', 'sol15-up'].sort(),
    ]);

    // Empty ask side and crossed book: the quote is there, with null asks.
    await expect
      .poll(() => quote('ETH', 5, 'polymarket'), { timeout: 10_000 })
      .toMatchObject({ up: null, down: null, strike: null });
    await expect
      .poll(() => quote('ETH', 15, 'kalshi'), { timeout: 10_000 })
      .toMatchObject({ up: null, down: null, strike: 3401.2 });
    // No book (SOL on Polymarket), no event (BTC 5 min), no market (SOL on Kalshi): nothing at all.
    expect(await quote('SOL', 15, 'polymarket')).toBeUndefined();
    expect(await quote('BTC', 5, 'polymarket')).toBeUndefined();
    expect(await quote('SOL', 15, 'kalshi')).toBeUndefined();

    // A price change takes the best ask's level away: the next level is the ask, at once.
    clob.broadcast(RECORDED_PRICE_CHANGE);
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.09);
    expect(btc.filter((q) => q.operatorId === 'polymarket').map((q) => q.up)).toEqual(
      expect.arrayContaining([0.08, 0.09]),
    );
  });

  it("rolls to the next window's tokens, strike and market at the boundary", async () => {
    const { clock, clob, http } = await venues();
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.08);
    await expect
      .poll(async () => (await quote('ETH', 5, 'polymarket'))?.windowStart, { timeout: 10_000 })
      .toBe(iso(T0));

    await clock.advanceTo(T1 + 1_000);
    await expect
      .poll(() => quote('BTC', 15, 'polymarket'), { timeout: 10_000 })
      .toMatchObject({
        windowStart: iso(T1),
        expiresAt: iso(T1 + 15 * 60_000),
        up: 0.52,
        down: 0.5,
        strike: null, // Gamma has not published this window's start price yet
        marketUrl: `https://polymarket.com/event/btc-updown-15m-${T1 / 1000}`,
      });
    await expect
      .poll(
        moving(clock, () => quote('BTC', 15, 'kalshi')),
        { timeout: 10_000 },
      )
      .toMatchObject({ windowStart: iso(T1), up: 0.46, down: 0.56, strike: 97101.3 });
    // ETH's 5-minute window rolled too, and the next one is not listed: its quote is withdrawn.
    await expect.poll(() => quote('ETH', 5, 'polymarket'), { timeout: 10_000 }).toBeUndefined();

    // The start price appears on Gamma later; the source asks again until it has one.
    const event = http.data.gammaEvents.find((e) => e.slug === `btc-updown-15m-${T1 / 1000}`)!;
    event.eventMetadata = { priceToBeat: 97098.75 };
    await expect
      .poll(
        moving(clock, async () => (await quote('BTC', 15, 'polymarket'))?.strike, 1_000),
        { timeout: 10_000 },
      )
      .toBe(97098.75);
    // The old window's tokens are no longer subscribed (a new connection: the channel has no unsubscribe).
    await expect.poll(() => clob.subscriptions.at(-1), { timeout: 10_000 }).toEqual([UP1, DOWN1].sort());
  });

  it('withdraws the quotes when the venue drops the connection, and resubscribes', async () => {
    const btc = await listen('BTC');
    const { clob, clock } = await venues();
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.08);

    clob.dropAll();
    await expect
      .poll(() => btc.some((q) => q.operatorId === 'polymarket' && q.up === null), { timeout: 10_000 })
      .toBe(true);
    // The reconnect waits out its backoff (from 0.5 s).
    await expect
      .poll(
        moving(clock, () => clob.subscriptions.length, 100),
        { timeout: 10_000 },
      )
      .toBe(2);
    expect(clob.subscriptions[1]).toEqual(clob.subscriptions[0]);
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.08);
  });

  it("forwards the socket's confirmations while the book is unchanged, never re-stamping the venue's time", async () => {
    const { clock } = await venues();
    await expect
      .poll(async () => (await quote('BTC', 15, 'polymarket'))?.ts, { timeout: 10_000 })
      .toBe(iso(T0 + 60_000));
    // A minute on, with a PING every 5 s. Each PONG confirms the socket at the time it is heard
    // (the I/O between a PING and its PONG may see the clock move on to the next timer), and a
    // confirmation is forwarded at most every 5 s: the last one is from the last five seconds.
    await clock.advanceTo(T0 + 120_000);
    const confirmedAt = async () => Date.parse((await quote('BTC', 15, 'polymarket'))!.ts);
    await expect.poll(confirmedAt, { timeout: 10_000 }).toBeGreaterThanOrEqual(T0 + 120_000 - PING_MS);
    // The venue's own time of the book stays when it sent it.
    expect(await quote('BTC', 15, 'polymarket')).toMatchObject({
      up: 0.08,
      down: 0.93,
      strike: 97005.12,
      venueTs: iso(T0 + 60_000),
    });
  });

  it('finds a silent socket within 10 s: withdraws the quotes and reconnects', async () => {
    const btc = await listen('BTC');
    const { clob, clock } = await venues();
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.08);
    const withdrawn = () => btc.some((q) => q.operatorId === 'polymarket' && q.up === null);
    // The venue keeps the connection open but stops answering anything, PINGs included: ten
    // seconds of the feed's clock later (its silence limit) the socket is dropped and its quotes
    // withdrawn. (That a socket answering its PINGs is kept: the confirmations test, a minute long.)
    clob.silent = true;
    await clock.advance(SILENCE_MS);
    await expect.poll(withdrawn, { timeout: 10_000 }).toBe(true);
    clob.silent = false;
    // The next connection comes after the reconnect backoff, however far it has grown.
    await expect
      .poll(
        moving(clock, () => clob.subscriptions.length, 1_000),
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await quote('BTC', 15, 'polymarket'))?.up, { timeout: 10_000 }).toBe(0.08);
  });

  it('withdraws a Kalshi quote while its poll fails, and brings it back', async () => {
    const btc = await listen('BTC');
    const { http, clock } = await venues();
    await expect.poll(async () => (await quote('BTC', 15, 'kalshi'))?.up, { timeout: 10_000 }).toBe(0.53);
    // 400 is not retried: each of the next three /markets calls fails, BTC's among them.
    http.fault({ prefix: '/kalshi/markets', status: 400, times: 3 });
    await expect
      .poll(
        moving(clock, () => btc.some((q) => q.operatorId === 'kalshi' && q.up === null)),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect
      .poll(
        moving(clock, async () => (await quote('BTC', 15, 'kalshi'))?.up),
        { timeout: 10_000 },
      )
      .toBe(0.53);
  });
});
