/**
 * The odds provider's quota and pacing survive a worker restart: what the provider said (credits
 * spent, a 401 OUT_OF_USAGE_CREDITS block, a long Retry-After) and when each odds and scores call
 * was made are kept in Redis, so a new source on a new client (a restarted worker) makes no call
 * while the block holds or before the interval ends. Against the local replay of the provider and
 * real Redis, through the real refresh job; the clock is injected.
 */
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { redisQuotaStore } from '../../src/sources/http/redis-quota-store.js';
import { readMeta } from '../../src/store/snapshots.js';
import { refreshSportsbook } from '../../workers/jobs/refresh-sportsbook.js';
import { useRedis } from '../support/redis.js';
import { useReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
const replay = useReplayServer({ oddsRemaining: 500 });
const log = pino({ level: 'silent' });
const FAST = { backoffBaseMs: 1, backoffMaxMs: 2, breakerBaseMs: 1 };
const HOUR = 3_600_000;

let clock = new Date();
beforeEach(async () => {
  await redis.client.flushdb();
  clock = new Date();
  // A quota this large paces nothing: the intervals here are the ones each case sets.
  replay.oddsRemaining = 1e9;
  // The provider shares the case's time: its books are as fresh as when it is called.
  replay.clock = () => clock.getTime();
});

/** A worker's sportsbook job as it starts: a new client and source, the quota store in Redis. */
function worker(opts: { minIntervalMs?: number; kalshi?: boolean } = {}) {
  const odds = new OddsApiClient({
    baseUrl: `${replay.base}/odds`,
    apiKey: 'k',
    resilience: FAST,
    now: () => clock.getTime(),
  });
  const source = createOddsSportsbookSource({
    odds,
    log,
    minIntervalMs: opts.minIntervalMs ?? 0,
    scoresIntervalMs: 600_000,
    quotaStore: redisQuotaStore(redis.client, 'odds-api'),
    ...(opts.kalshi
      ? {
          kalshi: new KalshiClient({
            baseUrl: `${replay.base}/kalshi`,
            resilience: { ...FAST, breakerThreshold: 1, breakerBaseMs: 60_000 },
          }),
        }
      : {}),
  });
  const run = refreshSportsbook(
    { redis: redis.client, log, now: () => clock.getTime(), fetchTimeoutMs: 5_000 },
    source,
  );
  return () => run({ league: 'NBA' });
}

const oddsCalls = () => replay.requests.filter((r) => r.startsWith('/odds/v4/sports/basketball_nba/odds')).length;
const scoresCalls = () => replay.requests.filter((r) => r.startsWith('/odds/v4/sports/basketball_nba/scores')).length;

describe('odds quota across restarts', () => {
  it("a restarted worker makes no call while the provider's out-of-credits block holds, and calls once it lapses", async () => {
    await worker()();
    expect(oddsCalls()).toBe(1);
    replay.fault({
      prefix: '/odds/v4/sports/basketball_nba/odds',
      status: 401,
      body: { message: 'Usage quota has been reached', error_code: 'OUT_OF_USAGE_CREDITS' },
    });
    clock = new Date(clock.getTime() + 5_000);
    const first = worker();
    await expect(first()).rejects.toThrow(/OUT_OF_USAGE_CREDITS/);
    const calls = replay.requests.length;

    // Restarted: a new process knows the block from Redis and calls nothing, odds or scores.
    clock = new Date(clock.getTime() + 5_000);
    const restarted = worker();
    await expect(restarted()).rejects.toThrow(/odds-api: request quota exhausted/);
    expect(replay.requests).toHaveLength(calls);
    expect(await readMeta(redis.client, 'sportsbook', 'NBA')).toMatchObject({ lastReason: 'quota' });

    // Once the block lapses (an hour without reset information), one call reads the quota again.
    clock = new Date(clock.getTime() + HOUR);
    expect(await worker()()).toMatchObject({ endedFailures: 2 });
    expect(oddsCalls()).toBe(3);
  });

  it('a restarted worker waits out the interval of the last odds call, and a long Retry-After', async () => {
    const interval = 10 * 60_000;
    await worker({ minIntervalMs: interval })();
    expect(oddsCalls()).toBe(1);
    // Restarted within the interval: no call (the last snapshot stays served).
    clock = new Date(clock.getTime() + 60_000);
    await expect(worker({ minIntervalMs: interval })()).rejects.toThrow(/minimum interval until/);
    expect(oddsCalls()).toBe(1);
    // After it: one call, which the provider refuses for 20 minutes.
    clock = new Date(clock.getTime() + interval);
    replay.fault({ prefix: '/odds/v4/sports/basketball_nba/odds', status: 429, headers: { 'retry-after': '1200' } });
    await expect(worker({ minIntervalMs: 0 })()).rejects.toThrow(/odds-api: HTTP 429/);
    expect(oddsCalls()).toBe(2);
    // Restarted again, with no interval at all: the provider's Retry-After still holds.
    clock = new Date(clock.getTime() + 60_000);
    await expect(worker({ minIntervalMs: 0 })()).rejects.toThrow(/odds-api: asked to retry after/);
    expect(oddsCalls()).toBe(2);
  });

  it('paces and counts score calls across restarts', async () => {
    replay.scores.basketball_nba = [];
    const run = worker();
    await run(); // odds bought; closing lines recorded from the accepted snapshot
    clock = new Date(clock.getTime() + 5_000);
    await run(); // scores due: one call
    expect(scoresCalls()).toBe(1);
    // Restarted within the scores interval: odds again (no interval), scores not.
    clock = new Date(clock.getTime() + 5_000);
    const restarted = worker();
    await restarted();
    await restarted();
    expect(scoresCalls()).toBe(1);
    // The credits the provider reported are what the store says.
    const saved = JSON.parse((await redis.client.get('pw:quota:odds-api'))!) as {
      quota: { remaining: number };
      calls: Record<string, number>;
    };
    expect(saved.quota.remaining).toBe(replay.oddsRemaining);
    expect(saved.calls['scores:NBA']).toBeDefined();
  });

  it('buys no odds for a refresh that cannot publish: Kalshi is asked first, and its open circuit stops the call', async () => {
    const run = worker({ kalshi: true });
    await run();
    expect(oddsCalls()).toBe(1);
    replay.fault({ prefix: '/kalshi', status: 503, times: 10 });
    clock = new Date(clock.getTime() + 5_000);
    await expect(run()).rejects.toThrow(/kalshi: (HTTP 503|circuit open)/);
    clock = new Date(clock.getTime() + 5_000);
    await expect(run()).rejects.toThrow(/kalshi: circuit open/);
    expect(oddsCalls()).toBe(1);
  });
});
