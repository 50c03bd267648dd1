/**
 * Drill: Redis is killed (SIGKILL) under traffic and restarted on the same port. During the
 * outage no request to the API takes a second (widgets answer from memory, clicks redirect at
 * once, a key verified before the outage keeps working, one that cannot be checked is a 503 with
 * Retry-After) and /readyz stays 200 `degraded`, naming Redis; clicks made then are counted once
 * Redis is back, and the API recovers without a restart. Clicks made during an outage survive an
 * API stopped before Redis returns: spilled to the data folder, counted by the next API. A frozen
 * Redis costs a request nothing once the breaker has opened. An API started while Redis is away
 * serves the disk copy of the last snapshots, marked stale, and follows Redis once it is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/process/free-port.js';
import { clicksKey } from '../../src/tracking/click-counter.js';
import { loadConfig } from '../../src/config.js';
import { BREAK_AFTER } from '../../src/store/redis-breaker.js';
import { EXPECTED_SNAPSHOTS } from '../../src/store/keys.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
let dir: string;
let port: number;
let server: ChildProcess;
let client: Redis;
let worker: ServiceProcess;
let api: ServiceProcess;
let env: Record<string, string>;
const keys: Record<'used' | 'unused', string> = { used: '', unused: '' };

/** A persistent redis-server on `port` (append-only file fsynced always, so SIGKILL loses nothing). */
async function startRedis(): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--loglevel', 'warning'],
    { stdio: 'ignore' },
  );
  const probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {}); // refused until the server listens; retried
  await probe.ping();
  probe.disconnect();
  return child;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-outage-'));
  port = await freePort();
  server = await startRedis();
  const url = `redis://127.0.0.1:${port}`;
  client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', () => {});
  // One API process: the drill counts on the key check cached by the process that answered before
  // the outage, and that cache is per process. With API workers the kernel may hand a later
  // connection to a worker that never checked the key (503 then, as on another API instance).
  // No cache of successful key checks: a key works through the outage by the outage grace alone.
  // A command timeout far above a request answered from memory, even on a busy machine, so the
  // frozen-Redis drill tells the two apart.
  env = testEnv(url, {
    TRUST_PROXY: '127.0.0.1,::1',
    API_WORKERS: '1',
    ADVERTISER_KEY_CACHE_SECONDS: '0',
    DATA_DIR: join(dir, 'data'),
    REDIS_COMMAND_TIMEOUT_MS: '1000',
  });
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  keys.used = await advertiserKeys(client).create('outage-used', 'Used', new Date());
  keys.unused = await advertiserKeys(client).create('outage-unused', 'Unused', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  client?.disconnect();
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, address: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers }, redirect: 'manual' });
const adv = (id: 'used' | 'unused', address: string) =>
  get('/advertiser/v1/widgets/events', address, { 'x-advertiser-id': `outage-${id}`, 'x-api-key': keys[id] });

/** Runs `request`, returning its response and how long the whole answer took. */
async function timed(request: () => Promise<Response>): Promise<{ res: Response; ms: number }> {
  const start = performance.now();
  const res = await request();
  await res.arrayBuffer();
  return { res, ms: performance.now() - start };
}

/** A signed click link from a broad widget, its operator, today and that operator's count now. */
async function clickLink(address: string) {
  const widget = await get('/v1/widgets/broad?fallback_geo=GB&limit=1', address);
  const link = new URL(BroadWidgetPayload.parse(await widget.json()).operators[0]!.routing.web_url);
  const operatorId = link.searchParams.get('o')!;
  const day = new Date().toISOString().slice(0, 10);
  return { link, operatorId, day, before: await client.pfcount(clicksKey(operatorId, day)) };
}

async function killRedis(): Promise<void> {
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  client.disconnect();
}

async function restartRedis(): Promise<void> {
  server = await startRedis();
  client = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null });
  client.on('error', () => {});
}

describe('Redis killed and restarted under traffic', () => {
  it('answers everything within a second, loses no click, and recovers without a restart', async () => {
    const { link, operatorId, day, before } = await clickLink('81.2.70.1');
    expect((await adv('used', '81.2.70.2')).status).toBe(200); // verified: known good for the outage grace

    await killRedis();

    const slow: string[] = [];
    const VISITORS = 20;
    for (let v = 0; v < VISITORS; v++) {
      const address = `81.2.71.${v + 1}`;
      const click = await timed(() => get(`${link.pathname}${link.search}`, address));
      expect(click.res.status).toBe(302);
      const page = await timed(() => get('/v1/widgets/broad?fallback_geo=GB&limit=1', address));
      expect(page.res.status).toBe(200);
      const unverifiable = await timed(() => adv('unused', address));
      expect(unverifiable.res.status).toBe(503);
      expect(Number(unverifiable.res.headers.get('retry-after'))).toBeGreaterThan(0);
      const cached = await timed(() => adv('used', address));
      expect(cached.res.status).toBe(200);
      const ready = await timed(() => get('/readyz', address));
      expect(ready.res.status).toBe(200);
      for (const [name, r] of Object.entries({ click, page, unverifiable, cached, ready })) if (r.ms >= 1000) slow.push(`${name} ${Math.round(r.ms)} ms`);
    }
    expect(slow).toEqual([]);
    const readiness = (await (await get('/readyz', '81.2.70.4')).json()) as { status: string; missing: string[]; redis: string };
    expect(readiness).toMatchObject({ status: 'degraded', redis: 'unreachable' });
    expect(readiness.missing).toContain('redis');

    await restartRedis();
    // every click made during the outage is written once Redis is back
    await expect.poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 20_000, interval: 200 }).toBe(before + VISITORS);
    // and keys can be checked again, by the same process
    await expect.poll(async () => (await adv('unused', '81.2.70.3')).status, { timeout: 20_000, interval: 200 }).toBe(200);
    // a revocation applies as soon as Redis is back: the outage grace is over
    await advertiserKeys(client).revoke('outage-used', new Date());
    await expect.poll(async () => (await adv('used', '81.2.70.3')).status, { timeout: 5_000, interval: 100 }).toBe(401);
    expect(api.child.exitCode).toBeNull();
  });

  it('clicks made during an outage survive an API stopped before Redis returns', async () => {
    const { link, operatorId, day, before } = await clickLink('81.2.73.1');

    await killRedis();
    const VISITORS = 20;
    for (let v = 0; v < VISITORS; v++) expect((await get(`${link.pathname}${link.search}`, `81.2.74.${v + 1}`)).status).toBe(302);
    await api.stop();
    expect(api.output()).toContain('clicks not written to Redis at stop; spilled to a file');
    expect(readdirSync(join(dir, 'data', 'spill')).filter((f) => f.startsWith('clicks-'))).toHaveLength(1);

    await restartRedis();
    api = await spawnProcess('src/main.ts', env);
    await expect.poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 30_000, interval: 200 }).toBe(before + VISITORS);
    // replayed once: the file is gone
    await expect.poll(() => readdirSync(join(dir, 'data', 'spill')), { timeout: 5_000 }).toEqual([]);
    // The replay runs before the API listens: the next drill needs it serving.
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  }, 60_000);

  it('a frozen Redis costs the first few requests its command timeout, then nothing (breaker)', async () => {
    const { link, operatorId, day, before } = await clickLink('81.2.75.1');
    server.kill('SIGSTOP'); // connected, answering nothing
    try {
      const CLICKS = BREAK_AFTER * 4;
      const waited: number[] = [];
      for (let v = 0; v < CLICKS; v++) {
        const click = await timed(() => get(`${link.pathname}${link.search}`, `81.2.76.${v + 1}`));
        expect(click.res.status).toBe(302);
        if (click.ms >= loadConfig(env).redisCommandTimeoutMs) waited.push(v);
      }
      // Only the commands that opened the breaker waited (a flush of the click buffer may be one of them).
      expect(waited.length).toBeLessThanOrEqual(BREAK_AFTER);
      const ready = await get('/readyz', '81.2.75.2');
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { missing: string[] }).missing).toContain('redis');
      server.kill('SIGCONT');
      await expect.poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 20_000, interval: 200 }).toBe(before + CLICKS);
    } finally {
      server.kill('SIGCONT');
    }
  }, 60_000);

  it('an API started while Redis is away serves the disk copy of its last snapshots, marked stale', async () => {
    const copies = join(dir, 'data', 'snapshots');
    const present = () => readdirSync(copies).filter((f) => f.endsWith('.json')).length;
    await expect.poll(present, { timeout: 20_000, interval: 200 }).toBe(EXPECTED_SNAPSHOTS.length);
    await api.stop();
    await killRedis();

    api = await spawnProcess('src/main.ts', env);
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
    const ready = (await (await get('/readyz', '81.2.77.1')).json()) as { status: string; missing: string[] };
    expect(ready.status).toBe('degraded');
    expect(ready.missing).toEqual(expect.arrayContaining(['redis', ...EXPECTED_SNAPSHOTS.map((id) => `snapshot ${id.kind}/${id.key} stale`)]));
    const widget = await get('/v1/widgets/broad?fallback_geo=GB&limit=1', '81.2.77.2');
    expect(widget.status).toBe(200);
    expect(BroadWidgetPayload.parse(await widget.json()).stale).toBe(true);

    await restartRedis();
    await expect.poll(async () => ((await (await get('/readyz', '81.2.77.1')).json()) as { missing: string[] }).missing, { timeout: 30_000, interval: 250 }).not.toContain('redis');
    await expect.poll(async () => BroadWidgetPayload.parse(await (await get('/v1/widgets/broad?fallback_geo=GB&limit=1', '81.2.77.2')).json()).stale, { timeout: 30_000, interval: 250 }).toBeUndefined();
  }, 90_000);
});
