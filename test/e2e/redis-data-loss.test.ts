/**
 * Drills of Redis losing its data while the service runs (FLUSHALL stands for an eviction or a
 * restart without persistence as well): the worker puts its job schedules back and refreshes
 * resume within SCHEDULE_CHECK_MS plus a refresh interval, payloads built meanwhile are flagged
 * stale from the last fetch time the API saw, and advertiser records come back from the API's disk
 * copy; an API restarted against the empty Redis serves its disk copy of the snapshots, flagged;
 * an unsafe maxmemory-policy is named; a worker whose schedules stop finishing fails /healthz.
 * Every process runs on one test clock, which the test moves instead of waiting.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultFile } from '../../src/auth/advertiser-vault.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/runtime/free-port.js';
import { BULL_PREFIX, EXPECTED_SNAPSHOTS, metaKey } from '../../src/store/keys.js';
import { snapshotDir } from '../../src/store/snapshot-disk.js';
import { EventWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { SLACK_MS } from '../../workers/refresh-watch.js';
import { REFRESH_QUEUE, SCHEDULE_CHECK_MS, schedules } from '../../workers/schedules.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, scrape, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';
import { fedSlug } from '../support/slugs.js';

// The simulator's Fed event today: its slug rolls with the meetings.
const FED = fedSlug();

const redis = useRedis();
const clock = testClock();
const STALE_AFTER_INTERVALS = 3;
const ADVERTISER = 'data-loss-adv';
let env: Record<string, string>;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;

interface Ready {
  status: string;
  missing: string[];
  redis_eviction_policy: string | null;
  snapshots: Array<{ kind: string; key: string; loaded: boolean; stale: boolean; fetched_at: string | null }>;
}

const ready = async () => (await (await fetch(`${api.base}/readyz`)).json()) as Ready;
const eventWidget = async () =>
  EventWidgetPayload.parse(await (await fetch(`${api.base}/v1/widgets/event?slug=${FED}`)).json());
const advertiserStatus = async () =>
  (
    await fetch(`${api.base}/advertiser/v1/widgets/events`, {
      headers: { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey },
    })
  ).status;
const config = () => loadConfig(env);

beforeAll(async () => {
  env = testEnv(redis.url, {
    ...clock.env,
    STALE_AFTER_INTERVALS: String(STALE_AFTER_INTERVALS),
    REFRESH_FX_SECONDS: '60',
    // Every key check asks Redis: a record Redis lost is found at the next request.
    ADVERTISER_KEY_CACHE_SECONDS: '0',
    ADMIN_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: String(await freePort()),
  });
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Data loss', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
}, 90_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

describe('Redis loses its data', () => {
  it('FLUSHALL mid-run: payloads are flagged stale meanwhile, advertisers are restored, refreshes resume within the bound', async () => {
    // The API keeps a disk copy of the advertiser records once it has heard of one.
    await expect
      .poll(
        () =>
          existsSync(vaultFile(env.DATA_DIR!)) && readFileSync(vaultFile(env.DATA_DIR!), 'utf8').includes(ADVERTISER),
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(await advertiserStatus()).toBe(200);
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 20_000, interval: 200 }).toBeUndefined();
    const before = (await ready()).snapshots.find((s) => s.kind === 'events')!.fetched_at!;

    // The worker is paused only so that the window between the flush and its repair can be looked at.
    worker.child.kill('SIGSTOP');
    try {
      await redis.client.flushall();
      clock.advance(STALE_AFTER_INTERVALS * config().refreshSeconds.events * 1000 + 2_000);
      // Served from memory, flagged, with the last fetch time the API saw.
      await expect.poll(async () => (await eventWidget()).stale, { timeout: 10_000, interval: 200 }).toBe(true);
      expect((await eventWidget()).data_fetched_at).toBe(before);
      const r = await ready();
      expect(r.status).toBe('degraded');
      expect(r.missing).toContain('snapshot events/all stale');
      expect(r.snapshots.every((s) => s.loaded)).toBe(true);
      // The advertiser's record is gone from Redis: the first check restores it from the disk copy.
      expect(await advertiserStatus()).toBe(200);
      expect(await redis.client.exists(`pw:adv:${ADVERTISER}`)).toBe(1);
      await expect.poll(() => api.output(), { timeout: 5_000 }).toContain('advertiser records missing from Redis'); // the line reaches the pipe a moment later
    } finally {
      worker.child.kill('SIGCONT');
    }

    const resumed = Date.now();
    const boundMs = SCHEDULE_CHECK_MS + config().refreshSeconds.events * 1000;
    // The bound, with room for a machine busy with other tests.
    await expect
      .poll(() => redis.client.hget(metaKey('events', 'all'), 'fetchedAt'), {
        timeout: boundMs + 15_000,
        interval: 100,
      })
      .toBeTruthy();
    console.info(
      `refreshes resumed ${Date.now() - resumed} ms after the worker went on (bound ${boundMs} ms plus a busy machine's slack)`,
    );
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 20_000, interval: 200 }).toBeUndefined();
    await expect.poll(() => worker.output(), { timeout: 5_000 }).toContain('job schedules missing from Redis');
    expect(await scrape(env.WORKER_HEALTH_PORT!, 'predictwire_job_schedules_recreated_total')).toBe(
      schedules(config()).length,
    );
    expect(worker.child.exitCode).toBeNull();
  }, 90_000);

  it('names a maxmemory-policy other than noeviction, in /readyz and a metric, until it is noeviction again', async () => {
    await redis.client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const r = await ready();
      expect(r).toMatchObject({ status: 'degraded', redis_eviction_policy: 'allkeys-lru' });
      expect(r.missing).toContain('redis maxmemory-policy allkeys-lru');
      expect(await scrape(env.ADMIN_PORT!, 'predictwire_redis_eviction_unsafe{policy="allkeys-lru"}')).toBe(1);
      await expect
        .poll(() => api.output(), { timeout: 5_000 })
        .toContain('redis maxmemory-policy is allkeys-lru, not noeviction');
    } finally {
      await redis.client.config('SET', 'maxmemory-policy', 'noeviction');
    }
    const r = await ready();
    expect(r.redis_eviction_policy).toBe('noeviction');
    expect(r.missing.filter((m) => m.startsWith('redis maxmemory-policy'))).toEqual([]);
    expect(await scrape(env.ADMIN_PORT!, 'predictwire_redis_eviction_unsafe{policy="noeviction"}')).toBe(0);
  });

  it('an API restarted against an empty Redis serves its disk copy of the snapshots, flagged stale, until the worker writes again', async () => {
    const copies = () => readdirSync(snapshotDir(env.DATA_DIR!)).filter((f) => f.endsWith('.json')).length;
    await expect.poll(copies, { timeout: 20_000, interval: 200 }).toBe(EXPECTED_SNAPSHOTS.length);
    await Promise.all([api.stop(), worker.stop()]);
    await redis.client.flushall();

    api = await spawnProcess('src/main.ts', env);
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 30_000);
    const r = await ready();
    expect(r.status).toBe('degraded');
    expect(r.missing).not.toContain('redis');
    expect(r.missing).toEqual(
      expect.arrayContaining(EXPECTED_SNAPSHOTS.map((id) => `snapshot ${id.kind}/${id.key} stale`)),
    );
    const widget = await eventWidget();
    expect(widget.stale).toBe(true);
    expect(Date.parse(widget.data_fetched_at!)).toBeLessThanOrEqual(clock.now());
    await expect.poll(() => api.output(), { timeout: 5_000 }).toContain('redis has no snapshots at start');

    worker = await spawnProcess('workers/main.ts', env);
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 30_000, interval: 250 }).toBeUndefined();
  }, 90_000);

  it('a worker whose schedules stop finishing fails /healthz, so its supervisor restarts it; it passes again once they run', async () => {
    const health = async () => (await fetch(`http://127.0.0.1:${env.WORKER_HEALTH_PORT}/healthz`)).status;
    await expect.poll(health, { timeout: 20_000, interval: 200 }).toBe(200);
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(REFRESH_QUEUE, { connection, prefix: BULL_PREFIX });
    await queue.pause(); // nothing runs, as with a scheduler lost and not put back, or a stuck worker
    try {
      await expect.poll(() => queue.getActiveCount(), { timeout: 20_000, interval: 100 }).toBe(0);
      const longest = Math.max(...schedules(config()).map((s) => s.everyMs));
      clock.advance(longest * STALE_AFTER_INTERVALS + SLACK_MS + 5_000);
      await expect.poll(health, { timeout: 10_000, interval: 200 }).toBe(503);
      const body = (await (await fetch(`http://127.0.0.1:${env.WORKER_HEALTH_PORT}/healthz`)).json()) as {
        overdue_seconds: Record<string, number>;
      };
      expect(Object.keys(body.overdue_seconds)).toEqual(expect.arrayContaining(schedules(config()).map((s) => s.id)));
      await expect.poll(() => worker.output(), { timeout: 5_000 }).toContain('refreshes stopped finishing');
    } finally {
      await queue.resume();
    }
    // The test moved the service's clock past every schedule's next run, but BullMQ schedules by
    // the machine's clock: its delayed runs are made due now, as that much real time would have.
    await queue.promoteJobs();
    await expect.poll(health, { timeout: 30_000, interval: 250 }).toBe(200);
    await queue.close();
    connection.disconnect();
  }, 60_000);
});
