/**
 * Drill: the worker's clock runs an hour ahead of the API's. While it refreshes, its snapshots are
 * fresh (the API ages each fetch stamp from when it saw it, and counts the stamps from the future);
 * once it is killed, they turn stale after STALE_AFTER_INTERVALS refresh intervals by the API's own
 * clock, not an hour later. Each process has its own test clock, moved by the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { EventWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { scrape, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';
import { fedSlug } from '../support/slugs.js';

const redis = useRedis();
const HOUR = 3_600_000;
const apiClock = testClock();
// The Fed event the API lists on its clock.
const FED = fedSlug(apiClock.now());
const workerClock = testClock(HOUR);
const REFRESH_SECONDS = 10;
const STALE_AFTER_INTERVALS = 6;
const LIMIT_MS = REFRESH_SECONDS * STALE_AFTER_INTERVALS * 1000;
let env: Record<string, string>;
let api: ServiceProcess;
let worker: ServiceProcess;

interface Ready {
  snapshots: Array<{
    kind: string;
    loaded: boolean;
    stale: boolean;
    fetched_at: string | null;
    age_seconds: number | null;
  }>;
}
const events = async () =>
  ((await (await fetch(`${api.base}/readyz`)).json()) as Ready).snapshots.find((s) => s.kind === 'events')!;
const eventWidget = async () =>
  EventWidgetPayload.parse(await (await fetch(`${api.base}/v1/widgets/event?slug=${FED}`)).json());

beforeAll(async () => {
  env = testEnv(redis.url, {
    REFRESH_EVENTS_SECONDS: String(REFRESH_SECONDS),
    REFRESH_SPORTSBOOK_SECONDS: String(REFRESH_SECONDS),
    REFRESH_METRICS_SECONDS: String(REFRESH_SECONDS),
    REFRESH_FX_SECONDS: String(REFRESH_SECONDS),
    STALE_AFTER_INTERVALS: String(STALE_AFTER_INTERVALS),
    ADMIN_PORT: String(await freePort()),
  });
  worker = await spawnProcess('workers/main.ts', { ...env, ...workerClock.env });
  api = await spawnProcess('src/main.ts', { ...env, ...apiClock.env });
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
}, 90_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

describe('a worker whose clock runs an hour ahead', () => {
  it('is fresh while it refreshes; once killed, its snapshots are flagged after the limit by the API clock', async () => {
    await expect
      .poll(async () => (await events()).loaded && !(await events()).stale, { timeout: 30_000, interval: 250 })
      .toBe(true);
    // Its stamps are an hour ahead; the API counts them from when it read them, never from the future.
    expect(Date.parse((await events()).fetched_at!)).toBeLessThanOrEqual(apiClock.now());
    expect(
      await scrape(env.ADMIN_PORT!, 'predictwire_snapshot_future_stamps_total{kind="events"}'),
    ).toBeGreaterThanOrEqual(1);
    await expect.poll(() => api.output(), { timeout: 5_000 }).toContain('snapshot stamped in the future');

    worker.child.kill('SIGKILL');
    await new Promise((r) => worker.child.once('exit', r));
    // Half the limit later (plus the few real seconds since the last stamp): still fresh.
    apiClock.advance(LIMIT_MS / 2);
    await expect
      .poll(async () => (await events()).age_seconds, { timeout: 5_000, interval: 50 })
      .toBeGreaterThanOrEqual(LIMIT_MS / 2 / 1000);
    expect((await events()).stale).toBe(false);
    // Past the limit: stale in /readyz and in payloads, with a fetch time on the API's clock.
    apiClock.advance(LIMIT_MS / 2 + 10_000);
    // The API reads the moved clock within milliseconds: polled, not raced.
    await expect.poll(async () => (await events()).stale, { timeout: 5_000, interval: 50 }).toBe(true);
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 5_000, interval: 100 }).toBe(true);
    expect(Date.parse((await eventWidget()).data_fetched_at!)).toBeLessThan(apiClock.now() - LIMIT_MS);
  }, 60_000);
});
