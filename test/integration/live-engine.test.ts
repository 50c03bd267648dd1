/**
 * The live engine against a real redis-server: strikes claimed once with SET NX and shared by every
 * instance, windows aligned to the clock, late ticks, instances starting mid-window. The clock is
 * injected so boundaries are exact.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveEngine } from '../../src/live/engine.js';
import type { Tick } from '../../src/live/market.js';
import { strikeKey, ticksChannel } from '../../src/store/keys.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const T0 = Date.parse('2026-11-22T14:05:00.000Z'); // a 5-minute boundary, inside the 14:00 15-minute window

let clock = T0;
const engines: Array<{ engine: LiveEngine; conns: Redis[] }> = [];

async function startEngine(): Promise<LiveEngine> {
  const conns = [new Redis(redis.url), new Redis(redis.url)];
  const engine = new LiveEngine({ redis: conns[0]!, subscriber: conns[1]!, log, now: () => clock });
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
    conns.forEach((c) => c.disconnect());
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
    // 14:05 is inside the 14:00-14:15 window, which started before any tick: the first tick
    // this instance saw in it becomes that window's strike.
    expect(await strikeOf(e, 15)).toBe(97_250.12);
    expect(await redis.client.ttl(strikeKey('BTC', 5, startSec))).toBeGreaterThan(300);
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
    const e = await startEngine();
    e.apply(tick(100, T0 + 2_000));
    e.apply(tick(90, T0 + 1_000));
    expect(e.view('BTC', 5).spot).toBe(100);
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

  it('drops malformed tick messages without stopping', async () => {
    const e = await startEngine();
    for (const bad of ['not json', '{}', JSON.stringify({ ...tick(1, T0), asset: 'DOGE' }), JSON.stringify({ ...tick(1, T0), price: -5 })]) {
      e.ingest(bad);
    }
    expect(e.stats()).toMatchObject({ ticksApplied: 0, badTicks: 4 });
    e.ingest(JSON.stringify(tick(100, T0)));
    expect(await strikeOf(e)).toBe(100);
  });
});
