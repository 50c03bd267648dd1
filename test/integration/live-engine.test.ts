/**
 * The live engine against a real redis-server: strikes claimed once with SET NX and shared by every
 * instance, only from a tick at the window start; windows aligned to the clock, late ticks,
 * instances starting mid-window; venue quotes folded from `pw:quotes:{ASSET}` and the stored keys.
 * The clock is injected so boundaries are exact.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { widgetContext } from '../../src/serve/widget-context.js';
import { LiveEngine } from '../../src/live/engine.js';
import { MAX_CLOCK_SKEW_MS } from '../../src/model/clock.js';
import { LivePayloads } from '../../src/serve/live-payloads.js';
import type { Tick, VenueQuoteMessage } from '../../src/model/index.js';
import { LIVE_VENUES } from '../../src/live/venues.js';
import { varianceFromAnnual, VolatilityStamp } from '../../src/live/volatility.js';
import { quoteKey, quotesChannel, strikeKey, ticksChannel } from '../../src/store/keys.js';
import { buildLiveMarketWidget } from '../../src/widgets/live-market-widget.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { venueQuote } from '../support/live.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const T0 = Date.parse('2026-11-22T14:05:00.000Z'); // a 5-minute boundary, inside the 14:00 15-minute window

let clock = T0;
const engines: Array<{ engine: LiveEngine; conns: Redis[] }> = [];

async function startEngine(): Promise<LiveEngine> {
  const conns = [new Redis(redis.url), new Redis(redis.url), new Redis(redis.url)];
  const engine = new LiveEngine({
    redis: conns[0]!,
    subscriber: conns[1]!,
    quoteSubscriber: conns[2]!,
    log,
    strikeMaxLagMs: 2_000,
    now: () => clock,
  });
  await engine.start();
  engines.push({ engine, conns });
  return engine;
}

const tick = (price: number, atMs: number, asset: Tick['asset'] = 'BTC'): Tick => ({
  asset,
  price,
  ts: new Date(atMs).toISOString(),
  source: 'test',
});

const strikeOf = async (e: LiveEngine, horizon: 5 | 15 = 5) => {
  await expect.poll(() => e.view('BTC', horizon).strike, { timeout: 2_000, interval: 10 }).toBeDefined();
  return e.view('BTC', horizon).strike!;
};

beforeEach(async () => {
  clock = T0;
  await redis.client.flushall();
});

afterEach(async () => {
  for (const { engine, conns } of engines.splice(0)) {
    engine.stop();
    for (const c of conns) c.disconnect();
  }
});

describe('live engine', () => {
  it('takes the first tick at the window start (inclusive) as the strike and stores it once', async () => {
    const e = await startEngine();
    e.apply(tick(97_250.12, T0)); // exactly 14:05:00.000
    expect(await strikeOf(e)).toBe(97_250.12);
    e.apply(tick(97_300, T0 + 1_000));
    expect(e.view('BTC', 5).strike).toBe(97_250.12); // later ticks move the spot, not the strike
    expect(e.view('BTC', 5).spot).toBe(97_300);
    const startSec = T0 / 1000;
    expect(await redis.client.get(strikeKey('BTC', 5, startSec))).toBe('97250.12');
    expect(await redis.client.ttl(strikeKey('BTC', 5, startSec))).toBeGreaterThan(300);
    // 14:05 is five minutes into the 14:00-14:15 window: its start was missed, and a price
    // from 14:05 is not the price at 14:00, so that window has no strike at all.
    expect(e.view('BTC', 15)).toMatchObject({ strike: undefined, strikeStatus: 'missed' });
    expect(await redis.client.get(strikeKey('BTC', 15, (T0 - 300_000) / 1000))).toBeNull();
  });

  it('a late tick from the previous window does not set the new window strike', async () => {
    const e = await startEngine();
    e.apply(tick(100, T0 + 299_000)); // 14:09:59, in the 14:05 window
    clock = T0 + 300_050; // 14:10:00.050: the clock has rolled to the 14:10 window
    e.apply(tick(101, T0 + 299_990)); // stamped 14:09:59.990, arrives late
    expect(e.view('BTC', 5).window.startMs).toBe(T0 + 300_000);
    expect(e.view('BTC', 5).strike).toBeUndefined();
    expect(e.view('BTC', 5).spot).toBe(101); // still the newest price seen
    e.apply(tick(102, T0 + 300_100));
    expect(await strikeOf(e)).toBe(102);
  });

  it('an older tick never moves the spot backwards', async () => {
    clock = T0 + 2_000;
    const e = await startEngine();
    e.apply(tick(100, T0 + 2_000));
    e.apply(tick(90, T0 + 1_000));
    expect(e.view('BTC', 5).spot).toBe(100);
  });

  it('an older tick stamped at the window start, arriving after newer ones, is the strike but leaves the spot on the newest', async () => {
    // A feed that started mid-window sends the price at the window start with its true, older stamp.
    clock = T0 + 90_000;
    const e = await startEngine();
    e.apply(tick(97_400, T0 + 89_900)); // a live tick first
    expect(e.view('BTC', 5)).toMatchObject({ strike: undefined, strikeStatus: 'missed', spot: 97_400 });
    e.apply(tick(97_321.45, T0)); // then 14:05:00.000, the window start
    expect(await strikeOf(e)).toBe(97_321.45);
    expect(e.view('BTC', 5)).toMatchObject({ spot: 97_400, lastTickMs: T0 + 89_900 });
    expect(e.stats().ticksApplied).toBe(1); // the older tick taught the volatility nothing
    // The same older tick once the strike is set, or one outside the start's lag, changes nothing.
    e.apply(tick(97_000, T0 + 1_000));
    e.apply(tick(96_000, T0 + 30_000));
    expect(e.view('BTC', 5)).toMatchObject({ strike: 97_321.45, spot: 97_400 });
  });

  it('two instances on one Redis agree on the strike, even when they saw different first ticks', async () => {
    const a = await startEngine();
    const b = await startEngine();
    a.apply(tick(97_000, T0 + 10));
    b.apply(tick(97_999, T0 + 20));
    const [sa, sb] = [await strikeOf(a), await strikeOf(b)];
    expect(sa).toBe(sb);
    expect([97_000, 97_999]).toContain(sa);
  });

  it('both instances fold ticks published on pw:ticks:{ASSET} and agree', async () => {
    const a = await startEngine();
    const b = await startEngine();
    await redis.client.publish(ticksChannel('BTC'), JSON.stringify(tick(96_500.5, T0 + 5)));
    expect(await strikeOf(a)).toBe(96_500.5);
    expect(await strikeOf(b)).toBe(96_500.5);
    expect(a.stats().ticksApplied).toBe(1);
  });

  it('an instance started minutes after another prices with the same volatility: the one the feed stamps on the ticks', async () => {
    const stamp = new VolatilityStamp();
    clock = T0 + 600_000; // every tick below is in the past, none ahead of the clock
    const early = await startEngine();
    let late: LiveEngine | undefined;
    // Ten minutes of ticks, a second apart, with a burst in the middle; the late instance hears the last two minutes.
    for (let s = 0; s <= 600; s++) {
      if (s === 480) late = await startEngine();
      const price = 97_000 * Math.exp(0.002 * Math.sin(s / 7) + (s > 200 && s < 260 ? 0.004 * Math.cos(s) : 0));
      await redis.client.publish(ticksChannel('BTC'), JSON.stringify(stamp.stamp(tick(price, T0 + s * 1_000))));
    }
    await expect.poll(() => late!.view('BTC', 15).lastTickMs, { timeout: 5_000, interval: 20 }).toBe(T0 + 600_000);
    await expect.poll(() => early.view('BTC', 15).lastTickMs, { timeout: 5_000, interval: 20 }).toBe(T0 + 600_000);
    const variance = early.view('BTC', 15).variance;
    expect(late!.view('BTC', 15).variance).toBe(variance);
    // Learned from the ticks, not the prior.
    expect(variance).not.toBe(varianceFromAnnual(0.55));
  });

  it('an instance starting mid-window reads the strike back instead of inventing one', async () => {
    const a = await startEngine();
    a.apply(tick(95_000, T0 + 1));
    expect(await strikeOf(a)).toBe(95_000);
    clock = T0 + 120_000; // two minutes later a new instance starts
    const late = await startEngine();
    expect(late.view('BTC', 5).strike).toBe(95_000);
    late.apply(tick(95_500, T0 + 120_001)); // its first tick must not replace the stored strike
    expect(await strikeOf(late)).toBe(95_000);
  });

  it('rolls to the next window at expiry with no strike until a tick arrives in it', async () => {
    const e = await startEngine();
    e.apply(tick(100, T0));
    expect(await strikeOf(e)).toBe(100);
    clock = T0 + 300_000; // exactly the expiry = the next window's start
    const v = e.view('BTC', 5);
    expect(v.window.startMs).toBe(T0 + 300_000);
    expect(v.strike).toBeUndefined();
    e.apply(tick(105, T0 + 300_000));
    expect(await strikeOf(e)).toBe(105);
  });

  it('refuses a tick stamped well ahead of the clock, which would otherwise freeze the spot', async () => {
    const e = await startEngine();
    e.apply(tick(100, T0));
    e.apply(tick(999, T0 + 60_000)); // a minute in the future
    e.apply(tick(101, T0 + 1_000));
    expect(e.view('BTC', 5).spot).toBe(101);
    expect(e.stats().badTicks).toBe(1);
  });

  it('drops a tick more than MAX_CLOCK_SKEW_MS ahead, and takes one a little ahead as stamped now, so neither freezes the price', async () => {
    const e = await startEngine();
    clock = T0 + 10_000;
    e.apply(tick(100, clock));
    e.apply(tick(999, clock + MAX_CLOCK_SKEW_MS + 3_000)); // 4 s ahead: dropped, counted
    expect(e.view('BTC', 5).spot).toBe(100);
    e.apply(tick(102, clock + MAX_CLOCK_SKEW_MS)); // just within: applied, as of now
    expect(e.view('BTC', 5)).toMatchObject({ spot: 102, lastTickMs: clock });
    // The next honest tick moves the price at once, not when real time catches up with the other's stamp.
    clock += 100;
    e.apply(tick(103, clock));
    expect(e.view('BTC', 5).spot).toBe(103);
    expect(e.stats().droppedTicks).toEqual({ malformed: 0, future: 1 });
  });

  it('drops malformed tick messages without stopping', async () => {
    const e = await startEngine();
    for (const bad of [
      'not json',
      '{}',
      JSON.stringify({ ...tick(1, T0), asset: 'DOGE' }),
      JSON.stringify({ ...tick(1, T0), price: -5 }),
    ]) {
      e.ingest(bad);
    }
    expect(e.stats()).toMatchObject({ ticksApplied: 0, badTicks: 4 });
    e.ingest(JSON.stringify(tick(100, T0)));
    expect(await strikeOf(e)).toBe(100);
  });
});

const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });

/**
 * The payload as an API process builds it from this engine at the injected clock, for a viewer who
 * may be shown every venue: these tests are about the engine and the venues' quotes, compliance is
 * tested with the real rules elsewhere (test/unit/widget-compliance.test.ts).
 */
function payload(e: LiveEngine, horizon: 5 | 15 = 5, modelMissingVenues = false, nowMs = clock): LiveMarketPayload {
  const opts = { refreshIntervalSeconds: 2, staleAfterMs: 15_000, venues: LIVE_VENUES, modelMissingVenues };
  const ctx = {
    ...widgetContext(config, new Date(nowMs), undefined, undefined, 'US-NJ'),
    ...shownOperators('US-NJ', { shown: () => true }),
  };
  return LiveMarketPayload.parse(buildLiveMarketWidget(e.view('BTC', horizon), nowMs, opts, ctx));
}

/**
 * Lets a (wrong) SET NX that a tick may have started reach Redis before absence is checked: an
 * engine sends it as it applies the tick, and Redis answers a connection's commands in order, so a
 * PING on each engine's command connection returns after it.
 */
const settle = () => Promise.all(engines.map(({ conns }) => conns[0]!.ping()));

describe('the strike is the price at the window start', () => {
  it('a first tick later than the lag never becomes the strike: no_strike, nothing stored, until the next window', async () => {
    clock = T0 + 1_000;
    const e = await startEngine();
    expect(e.view('BTC', 5).strikeStatus).toBe('awaiting');
    expect(payload(e, 5, true).market_status).toBe('stale'); // no tick yet at all
    clock = T0 + 2_500;
    e.apply(tick(97_100, T0 + 2_001)); // 1 ms past the 2 s lag
    await settle();
    expect(e.view('BTC', 5)).toMatchObject({ strike: undefined, strikeStatus: 'missed', spot: 97_100 });
    expect(await redis.client.get(strikeKey('BTC', 5, T0 / 1000))).toBeNull();
    // Under the simulator too: no prices, no links.
    const p = payload(e, 5, true);
    expect(p.market_status).toBe('no_strike');
    expect(p.providers_pool).toEqual([]);
    // The next window takes the tick at its own start.
    clock = T0 + 300_010;
    e.apply(tick(97_200, T0 + 300_000));
    expect(await strikeOf(e)).toBe(97_200);
    expect(payload(e, 5, true).market_status).toBe('open');
  });

  it('a tick stamped exactly at the lag limit is still the start price', async () => {
    clock = T0 + 2_000;
    const e = await startEngine();
    e.apply(tick(97_150, T0 + 2_000));
    expect(await strikeOf(e)).toBe(97_150);
  });

  it('an instance starting mid-window with no stored strike reports no_strike and stores nothing', async () => {
    clock = T0 + 60_000;
    const e = await startEngine();
    e.apply(tick(97_300, T0 + 60_001));
    await settle();
    expect(e.view('BTC', 5)).toMatchObject({ strike: undefined, strikeStatus: 'missed' });
    expect(await redis.client.get(strikeKey('BTC', 5, T0 / 1000))).toBeNull();
    const p = payload(e, 5, true);
    expect(p.market_status).toBe('no_strike');
    expect(p.providers_pool).toEqual([]);
    expect(p.active_micro_question).toContain('the opening price');
  });

  it('an instance that missed the start learns the strike another instance caught, so both agree', async () => {
    const a = await startEngine();
    const b = await startEngine();
    a.apply(tick(97_010, T0 + 5)); // only a sees the start
    expect(await strikeOf(a)).toBe(97_010);
    clock = T0 + 3_000;
    b.apply(tick(97_500, T0 + 2_999)); // b's first tick is late: it must not become the strike
    // b re-reads the stored strike on its clock while its window has none.
    await expect.poll(() => b.view('BTC', 5).strike, { timeout: 3_000, interval: 20 }).toBe(97_010);
  });
});

/** A venue's quote for the BTC window at the clock, stamped now. */
const quoteNow = (operatorId: string, up: number | null, down: number | null, over: Partial<VenueQuoteMessage> = {}) =>
  venueQuote(operatorId, up, down, clock, over);

const publishQuote = (q: VenueQuoteMessage) => redis.client.publish(quotesChannel(q.asset), JSON.stringify(q));
const names = (p: LiveMarketPayload) => p.providers_pool.map((e) => e.operator_name);

describe('venue quotes', () => {
  it('reads stored quotes at start, folds published ones, keeps the newest per venue and drops malformed ones', async () => {
    clock = T0 + 60_000;
    await redis.client.set(quoteKey('BTC', 5, 'limitless'), JSON.stringify(quoteNow('limitless', 0.52, 0.5)), 'EX', 30);
    const e = await startEngine();
    expect(e.view('BTC', 5).quotes.map((q) => q.operatorId)).toEqual(['limitless']);
    await publishQuote(quoteNow('polymarket', 0.55, 0.47, { strike: 97_200 }));
    await expect.poll(() => e.view('BTC', 5).quotes.length, { timeout: 2_000, interval: 10 }).toBe(2);
    // An older message for the same venue and window does not replace the newer one.
    await publishQuote(quoteNow('polymarket', 0.9, 0.2, { ts: new Date(clock - 5_000).toISOString() }));
    await redis.client.publish(quotesChannel('BTC'), JSON.stringify({ ...quoteNow('polymarket', 0.5, 0.5), up: 1.5 }));
    await redis.client.publish(quotesChannel('BTC'), 'not json');
    await expect.poll(() => e.stats().badQuotes, { timeout: 2_000, interval: 10 }).toBe(2);
    expect(e.view('BTC', 5).quotes.find((q) => q.operatorId === 'polymarket')).toMatchObject({
      up: 0.55,
      strike: 97_200,
    });
    expect(e.view('BTC', 15).quotes).toEqual([]);
  });

  it("builds the payload from the venues' own quotes and strikes, after fees, leaving out stale, wrong-window and null-ask quotes", async () => {
    const e = await startEngine();
    e.apply(tick(97_250.12, T0)); // the window's own strike
    expect(await strikeOf(e)).toBe(97_250.12);
    clock = T0 + 60_000;
    e.apply(tick(97_262.62, T0 + 59_000));
    await publishQuote(quoteNow('polymarket', 0.55, 0.47, { strike: 97_200 }));
    await expect.poll(() => e.view('BTC', 5).quotes.length, { timeout: 2_000, interval: 10 }).toBe(1);

    const limitlessCases: Array<[string, VenueQuoteMessage]> = [
      ['stale', quoteNow('limitless', 0.52, 0.5, { ts: new Date(clock - 16_000).toISOString() })],
      [
        'wrong window',
        quoteNow('limitless', 0.52, 0.5, {
          windowStart: new Date(T0 - 300_000).toISOString(),
          expiresAt: new Date(T0).toISOString(),
        }),
      ],
      ['null asks', quoteNow('limitless', null, null, { ts: new Date(clock - 500).toISOString() })],
    ];
    for (const [why, q] of limitlessCases) {
      await redis.client.del(quoteKey('BTC', 5, 'limitless'));
      const fresh = await startEngine(); // a fresh book, so an older case's quote cannot linger
      fresh.apply(tick(97_262.62, T0 + 59_000));
      await publishQuote(quoteNow('polymarket', 0.55, 0.47, { strike: 97_200 }));
      await publishQuote(q);
      await expect.poll(() => fresh.view('BTC', 5).quotes.length, { timeout: 2_000, interval: 10 }).toBe(2);
      expect(names(payload(fresh, 5)), why).toEqual(['Polymarket']);
      // Under the simulator a stale or wrong-window venue is modelled; a venue saying null asks is out.
      expect(names(payload(fresh, 5, true)), why).toEqual(
        why === 'null asks' ? ['Polymarket'] : ['Polymarket', 'Limitless'],
      );
    }

    const p = payload(e, 5);
    expect(p.market_status).toBe('open');
    expect(names(p)).toEqual(['Polymarket']); // Limitless published nothing: left out, never modelled
    const poly = p.providers_pool[0]!;
    // Its own strike: 97,262.62 - 97,200.00 = +62.62 (the window's strike, 97,250.12, is not used).
    expect(poly.live_metrics).toMatchObject({ target_price: '$97,200.00', spot_difference: '+$62.62' });
    // 0.55 + 0.07 x 0.55 x 0.45 = 0.567325 -> x1.76; 0.47 + 0.07 x 0.47 x 0.53 = 0.487437 -> x2.05
    expect(poly.live_metrics.multipliers).toEqual({ payout_up: 'x1.76', payout_down: 'x2.05' });
    expect(poly.is_best_odds).toBe(true);
    expect(p.active_micro_question).toContain('$97,200.00');
  });

  it('shows a venue with its own strike on a window whose start the engine missed; one without a strike shows none, never ours', async () => {
    const e = await startEngine(); // 14:05: five minutes into the 15-minute window
    e.apply(tick(97_262.62, T0 + 1));
    await publishQuote(quoteNow('kalshi', 0.52, 0.49, { horizonMinutes: 15, strike: 97_180.25 }));
    await publishQuote(quoteNow('polymarket', 0.55, 0.47, { horizonMinutes: 15 }));
    await expect.poll(() => e.view('BTC', 15).quotes.length, { timeout: 2_000, interval: 10 }).toBe(2);
    const p = payload(e, 15);
    expect(e.view('BTC', 15).strikeStatus).toBe('missed');
    expect(p.market_status).toBe('open');
    // 0.52 + ceil(0.07 x 100 x 0.52 x 0.48 = 1.7472 -> 1.75) / 100 = 0.5375 -> x1.86;
    // 0.49 + ceil(1.7493 -> 1.75) / 100 = 0.5075 -> x1.97
    expect(p.providers_pool.map((x) => [x.operator_name, x.live_metrics.target_price])).toEqual([
      ['Polymarket', null],
      ['Kalshi', '$97,180.25'],
    ]);
    expect(p.providers_pool[1]!.live_metrics.multipliers).toEqual({ payout_up: 'x1.86', payout_down: 'x1.97' });
    expect(p.providers_pool[0]!.live_metrics.spot_difference).toBeNull();
    // The question names the first venue's strike that exists: Kalshi's.
    expect(p.active_micro_question).toContain('$97,180.25');
  });
});

describe('payloads at expiry', () => {
  it('never serves a payload of an expired window, and pushes the new window at the roll', async () => {
    const e = await startEngine();
    e.apply(tick(100, T0));
    expect(await strikeOf(e)).toBe(100);
    const live = new LivePayloads(
      e,
      (_a, h, nowMs) => payload(e, h as 5 | 15, true, nowMs),
      100,
      () => clock,
    );
    const pushed: string[] = [];
    live.onPush(
      (topic, _country, body) => {
        if (topic === 'live-market:BTC:5') pushed.push((JSON.parse(body.toString()) as LiveMarketPayload).window_start);
      },
      () => true,
    );
    live.latest('BTC', 5, 'JP'); // a subscriber's first read makes the JP variant, which is then pushed
    clock = T0 + 299_900;
    e.apply(tick(101, T0 + 299_900));
    const old = new Date(T0).toISOString();
    const next = new Date(T0 + 300_000).toISOString();
    expect((JSON.parse(live.latest('BTC', 5, 'JP').body.toString()) as LiveMarketPayload).window_start).toBe(old);
    expect(pushed.at(-1)).toBe(old);
    clock = T0 + 300_000; // 100 ms later: the body is young, but its window has expired
    const body = JSON.parse(live.latest('BTC', 5, 'JP').body.toString()) as LiveMarketPayload;
    expect(body.window_start).toBe(next);
    expect(body.market_status).toBe('awaiting_strike');
    // The clock pushes the new window although a push went out 100 ms before (a countdown would wait).
    await expect.poll(() => pushed.at(-1), { timeout: 3_000, interval: 20 }).toBe(next);
    live.stop();
  });
});
