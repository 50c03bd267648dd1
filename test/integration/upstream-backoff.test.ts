/**
 * Backoff across refreshes, against the replay server and real Redis, on a fake clock (only `Date`
 * is faked: sockets and Redis stay real, and cockatiel's circuit breaker reads the same clock).
 * The worker's schedule is simulated as it runs: a refresh every 5 s, and BullMQ's retries of a
 * failed job 1 s and 3 s later.
 * - Kalshi answers 503 for 60 s: the per-upstream circuit breaker keeps the request count to its
 *   schedule (3 attempts, then one probe after 5, 10, 20 s ...), where the old client sent one
 *   volley per refresh; the last good snapshot stays, one warning for the streak, then recovery.
 * - The odds provider is called at most once per league per minimum interval, failed calls
 *   included, and a Kalshi failure does not buy the odds again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { snapKey } from '../../src/store/keys.js';
import { readMeta } from '../../src/store/snapshots.js';
import { refreshEvents } from '../../workers/jobs/refresh-events.js';
import { refreshSportsbook } from '../../workers/jobs/refresh-sportsbook.js';
import type { RefreshDeps, RefreshResult } from '../../workers/refresh.js';
import { useRedis } from '../support/redis.js';
import { useReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
const replay = useReplayServer({ oddsRemaining: 1e9 });
const lines: Array<{ level: number; msg: string; kind?: string }> = [];
const log = pino(
  { level: 'info' },
  { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) },
);
const T0 = Date.now();

beforeEach(async () => {
  await redis.client.flushdb();
  lines.length = 0;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

const deps = (): RefreshDeps => ({ redis: redis.client, log, now: () => Date.now(), fetchTimeoutMs: 5_000 });

/**
 * Runs each job the way the worker would between `from` and `to` seconds after T0: every `every`
 * seconds, and when a run fails, BullMQ's two retries 1 s and 3 s later; runs happen in time order
 * across jobs. Returns each run's time, job index and outcome.
 */
async function simulate(
  jobs: Array<() => Promise<RefreshResult>>,
  from: number,
  to: number,
  every = 5,
): Promise<Array<[number, number, string]>> {
  const out: Array<[number, number, string]> = [];
  const queue: Array<{ at: number; job: number; retry: number }> = [];
  for (let t = from; t <= to; t += every) for (const job of jobs.keys()) queue.push({ at: t, job, retry: 0 });
  while (queue.length > 0) {
    queue.sort((a, b) => a.at - b.at || a.job - b.job);
    const next = queue.shift()!;
    vi.setSystemTime(T0 + next.at * 1000);
    const ok = await jobs[next.job]!().then(
      () => true,
      () => false,
    );
    out.push([next.at, next.job, ok ? 'ok' : 'failed']);
    if (!ok && next.retry < 2)
      queue.push({ at: next.at + (next.retry === 0 ? 1 : 2), job: next.job, retry: next.retry + 1 });
  }
  return out;
}

/** Request times the breaker allows for a storm that starts at 0: the first volley, then one probe per doubling pause. */
function breakerSchedule(stormSeconds: number, refreshEvery: number, attempts = 3, baseSeconds = 5): number {
  let requests = attempts;
  let openedAt = 0;
  let pause = baseSeconds;
  for (let t = refreshEvery; t < stormSeconds; t += refreshEvery) {
    if (t - openedAt >= pause) {
      requests++;
      openedAt = t;
      pause *= 2;
    }
  }
  return requests;
}

describe('backoff across refreshes', () => {
  it('a 60 s Kalshi 503 storm costs the breaker schedule, not a volley per refresh; then it recovers', async () => {
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: new KalshiClient({
        baseUrl: `${replay.base}/kalshi`,
        log,
        resilience: { backoffBaseMs: 1, backoffMaxMs: 2 },
      }),
      polymarket: new PolymarketClient({
        gammaUrl: `${replay.base}/gamma`,
        clobUrl: `${replay.base}/clob`,
        dataUrl: `${replay.base}/data`,
      }),
      log,
    });
    const run = refreshEvents(deps(), source);
    vi.setSystemTime(T0 - 10_000);
    expect(await run()).toMatchObject({ version: 1 });
    const good = await redis.client.get(snapKey('events', 'all'));
    replay.requests.length = 0;

    replay.fault({ prefix: '/kalshi', status: 503, untilMs: T0 + 60_000 });
    const runs = await simulate([run], 0, 55);
    expect(runs.every(([, , r]) => r === 'failed')).toBe(true);
    const kalshi = replay.requests.filter((r) => r.startsWith('/kalshi')).length;
    // 3 attempts at 0 s, then probes at 5, 15 and 35 s: 6 requests in 60 s (the old client: 3 per
    // job attempt, 3 job attempts per refresh, 12 refreshes = 108).
    expect(breakerSchedule(60, 5)).toBe(6);
    expect(kalshi).toBe(breakerSchedule(60, 5));
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(good);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: runs.length,
      lastReason: 'backoff',
    });
    expect(lines.filter((l) => l.level === 40 && l.msg.startsWith('refresh failed'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'upstream circuit opened; calls resume with backoff')).toHaveLength(1);

    // The storm is over; the breaker's next probe (40 s after the one at 35 s) closes it again.
    const after = await simulate([run], 60, 75);
    expect(after.at(-1)).toEqual([75, 0, 'ok']);
    expect(after.slice(0, -1).every(([, , r]) => r === 'failed')).toBe(true);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({ version: 1, failures: 0 });
    expect(lines.filter((l) => l.msg === 'refresh recovered')).toHaveLength(1);
  });

  it('the odds provider is called at most once per league per minimum interval, failures included', async () => {
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k' });
    const job = refreshSportsbook(deps(), createOddsSportsbookSource({ odds, log, minIntervalMs: 60_000 }));
    replay.fault({ prefix: '/odds', status: 500, untilMs: T0 + 180_000 });
    const leagues = ['NBA', 'NFL', 'NCAAB', 'EPL'] as const;
    // Each request's time, per sport key, from the fake clock at the moment it was served.
    const seen: Record<string, number[]> = {};
    const wrapped = leagues.map((league) => async () => {
      const before = replay.requests.length;
      try {
        return await job({ league });
      } finally {
        for (const r of replay.requests.slice(before)) {
          const sport = /\/sports\/([a-z_]+)\/odds/.exec(r)?.[1];
          if (sport) (seen[sport] ??= []).push(Date.now() - T0);
        }
      }
    });
    const runs = await simulate(wrapped, 0, 175);
    expect(runs.every(([, , r]) => r === 'failed')).toBe(true);
    // 180 s at one call per 60 s is at most 3 calls per league (the old source: 36 a minute for one).
    // Fewer once the provider's circuit opens: one upstream, one breaker for every league.
    for (const times of Object.values(seen)) {
      expect(times.length).toBeLessThanOrEqual(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(60_000);
    }
    expect(seen.basketball_nba).toEqual([0, 60_000, 120_000]);
    expect(Object.values(seen).flat().length).toBeGreaterThanOrEqual(4);
    expect(await readMeta(redis.client, 'sportsbook', 'NBA')).toMatchObject({ lastReason: 'backoff' });
  });

  it('a Kalshi failure does not buy the odds again', async () => {
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k' });
    const kalshi = new KalshiClient({
      baseUrl: `${replay.base}/kalshi`,
      resilience: { backoffBaseMs: 1, backoffMaxMs: 2 },
    });
    const job = refreshSportsbook(deps(), createOddsSportsbookSource({ odds, kalshi, log, minIntervalMs: 60_000 }));
    replay.fault({ prefix: '/kalshi', status: 503, untilMs: T0 + 30_000 });
    const runs = await simulate([() => job({ league: 'NBA' })], 0, 55);
    expect(runs.filter(([t]) => t < 30).every(([, , r]) => r === 'failed')).toBe(true);
    expect(runs.at(-1)).toEqual([55, 0, 'ok']);
    expect(replay.requests.filter((r) => r.startsWith('/odds/v4/sports/basketball_nba/odds'))).toHaveLength(1);
    expect(replay.requests.filter((r) => r.startsWith('/kalshi')).length).toBeGreaterThan(1);
  });
});
