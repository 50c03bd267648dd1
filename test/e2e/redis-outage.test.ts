/**
 * Drill: Redis is killed (SIGKILL) under traffic and restarted on the same port. During the
 * outage no request to the API takes a second (widgets answer from memory, clicks redirect at
 * once, a key verified before the outage keeps working, one that cannot be checked is a 503 with
 * Retry-After) and /readyz stays 200 `degraded`, naming Redis; clicks made then are counted once
 * Redis is back, and the API recovers without a restart. Clicks made during an outage survive an
 * API stopped before Redis returns: spilled to the data folder, counted by the next API; so do
 * operators' postbacks, checked from memory, answered 202 and counted once. A frozen
 * Redis costs a request nothing once the breaker has opened. An API started while Redis is away
 * serves the disk copy of the last snapshots, marked stale (and answers postbacks 503 until it has
 * the operators' secrets), and follows Redis once it is back.
 * A key known good gets no error through the reconnect either. SIGHUP to an API worker during an
 * outage stops it as SIGTERM does: every click it buffered is spilled and counted. A data folder
 * the API cannot write is reported at once, and the stop then says exactly how many clicks it lost.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { clicksKey } from '../../src/tracking/click-counter.js';
import { PostbackSecrets, signPostback } from '../../src/auth/postback-secrets.js';
import { clickKey, newClickId } from '../../src/tracking/click-ids.js';
import { conversionKey } from '../../src/tracking/conversions.js';
import { reportKey } from '../../src/tracking/report-counters.js';
import { loadConfig } from '../../src/config.js';
import { BREAK_AFTER } from '../../src/store/redis-breaker.js';
import { EXPECTED_SNAPSHOTS } from '../../src/store/keys.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { alive } from '../support/processes.js';
import { clickIdOf } from '../support/click-ids.js';
import {
  advertiserKeys,
  scrape,
  spawnProcess,
  testEnv,
  unprivileged,
  waitFor,
  type ServiceProcess,
} from '../support/service.js';

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
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--loglevel',
      'warning',
    ],
    { stdio: 'ignore' },
  );
  const probe = new Redis(`redis://127.0.0.1:${port}`, {
    lazyConnect: true,
    retryStrategy: () => 50,
    maxRetriesPerRequest: null,
  });
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
    // The first drill asks for a known key as fast as it can through a reconnect of some seconds
    // (ioredis's backoff): on a quiet machine more than the advertiser's allowance of 1200 a minute.
    RATE_LIMIT_ADVERTISER: '100000/60',
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
  fetch(`${api.base}${path}`, {
    headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers },
    redirect: 'manual',
  });
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
async function clickLink(address: string, base = api.base) {
  const widget = await fetch(`${base}/v1/widgets/broad?fallback_geo=GB&limit=1`, {
    headers: { 'user-agent': BROWSER, 'x-forwarded-for': address },
  });
  const link = new URL(BroadWidgetPayload.parse(await widget.json()).operators[0]!.routing.web_url);
  const operatorId = link.searchParams.get('o')!;
  const day = new Date().toISOString().slice(0, 10);
  return { link, operatorId, day, before: await client.pfcount(clicksKey(operatorId, day)) };
}

/** The API workers of the primary `proc` (its direct children running the API entry). */
const apiWorkersOf = (proc: ServiceProcess) =>
  execFileSync('ps', ['-o', 'pid=,cmd=', '--ppid', String(proc.child.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((row) => /src\/main\.[jt]s\b/.test(row)) // the compiled copy (test-build) or the source
    .map((row) => Number(row.trim().split(/\s+/)[0]));

/** The JSON log lines of `proc` whose message is `msg`. */
const logLines = (proc: ServiceProcess, msg: string) =>
  proc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(msg))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);

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
      for (const [name, r] of Object.entries({ click, page, unverifiable, cached, ready }))
        if (r.ms >= 1000) slow.push(`${name} ${Math.round(r.ms)} ms`);
    }
    expect(slow).toEqual([]);
    const readiness = (await (await get('/readyz', '81.2.70.4')).json()) as {
      status: string;
      missing: string[];
      redis: string;
    };
    expect(readiness).toMatchObject({ status: 'degraded', redis: 'unreachable' });
    expect(readiness.missing).toContain('redis');

    await restartRedis();
    // Through the reconnect (cached checks dropped, the breaker still open, the first commands
    // slow) a key known good keeps working: not one error, until Redis answers again and after.
    const afterReconnect: number[] = [];
    const redisBack = async () =>
      ((await (await get('/readyz', '81.2.72.1')).json()) as { redis: string }).redis === 'ok';
    for (let back = 0; back < 10; ) {
      afterReconnect.push((await adv('used', `81.2.72.${(afterReconnect.length % 250) + 1}`)).status);
      if (back > 0 || (await redisBack())) back++;
    }
    expect(afterReconnect.filter((s) => s !== 200)).toEqual([]);
    // every click made during the outage is written once Redis is back
    await expect
      .poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 20_000, interval: 200 })
      .toBe(before + VISITORS);
    // and keys can be checked again, by the same process
    await expect
      .poll(async () => (await adv('unused', '81.2.70.3')).status, { timeout: 20_000, interval: 200 })
      .toBe(200);
    // a revocation applies as soon as Redis is back: the outage grace is over
    await advertiserKeys(client).revoke('outage-used', new Date());
    await expect.poll(async () => (await adv('used', '81.2.70.3')).status, { timeout: 5_000, interval: 100 }).toBe(401);
    expect(api.child.exitCode).toBeNull();
  });

  it('clicks made during an outage survive an API stopped before Redis returns', async () => {
    const { link, operatorId, day, before } = await clickLink('81.2.73.1');

    await killRedis();
    const VISITORS = 20;
    for (let v = 0; v < VISITORS; v++)
      expect((await get(`${link.pathname}${link.search}`, `81.2.74.${v + 1}`)).status).toBe(302);
    await api.stop();
    expect(api.output()).toContain('clicks not written to Redis at stop; spilled to a file');
    expect(readdirSync(join(dir, 'data', 'spill')).filter((f) => f.startsWith('clicks-'))).toHaveLength(1);

    await restartRedis();
    api = await spawnProcess('src/main.ts', env);
    await expect
      .poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 30_000, interval: 200 })
      .toBe(before + VISITORS);
    // replayed once: the file is gone
    await expect.poll(() => readdirSync(join(dir, 'data', 'spill')), { timeout: 5_000 }).toEqual([]);
    // The replay runs before the API listens: the next drill needs it serving.
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  }, 60_000);

  it('postbacks taken during an outage are counted once, through an API stopped before Redis returns', async () => {
    // A visitor clicks an advertiser's link before the outage; its operator has a postback secret.
    const widget = BroadWidgetPayload.parse(
      await (await get('/v1/widgets/broad?fallback_geo=GB&limit=1&advertiser_id=outage-unused', '81.2.78.1')).json(),
    );
    const link = new URL(widget.operators[0]!.routing.web_url);
    expect(link.searchParams.get('a')).toBe('outage-unused');
    const operator = link.searchParams.get('o')!;
    const landed = await get(`${link.pathname}${link.search}`, '81.2.78.1');
    const clickId = clickIdOf(link, landed.headers.get('location')!)!;
    const secret = await new PostbackSecrets(client, loadConfig(env).apiKeyPepper).create(operator, new Date());
    const postback = (eventId: string, key = secret) =>
      get(
        `/v1/postback?${signPostback(key, `operator=${operator}&click_id=${clickId}&event=registration&event_id=${eventId}`)}`,
        '81.2.78.9',
      );
    // The API has the secret (an unknown event id of an unknown click is a 404, not a 401) and the click.
    await expect
      .poll(
        async () =>
          (
            await get(
              `/v1/postback?${signPostback(secret, `operator=${operator}&click_id=${newClickId(Date.now())}&event=registration&event_id=probe`)}`,
              '81.2.78.9',
            )
          ).status,
        { timeout: 5_000, interval: 100 },
      )
      .toBe(404);
    await expect.poll(() => client.exists(clickKey(clickId)), { timeout: 5_000, interval: 100 }).toBe(1);

    const day = reportKey('outage-unused', 'day', new Date().toISOString().slice(0, 10));
    await killRedis();
    // Checked from memory and queued; sent twice, as an operator retrying would.
    for (let i = 0; i < 2; i++) {
      const queued = await postback('outage-reg-1');
      expect(queued.status).toBe(202);
      expect(await queued.json()).toMatchObject({ status: 'queued', event_id: 'outage-reg-1' });
    }
    // A forgery is still told apart without Redis.
    expect((await postback('outage-forged', 'pwp_not-the-secret')).status).toBe(401);
    await api.stop();
    expect(api.output()).toContain('postbacks not written to Redis at stop; spilled to a file');

    await restartRedis();
    api = await spawnProcess('src/main.ts', env);
    const field = `r|${operator}|broad|GB`;
    await expect.poll(() => client.hget(day, field), { timeout: 30_000, interval: 200 }).toBe('1');
    await expect.poll(() => readdirSync(join(dir, 'data', 'spill')), { timeout: 5_000 }).toEqual([]);
    expect(await client.exists(conversionKey(operator, 'outage-forged'))).toBe(0);
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
    // Sent again now: counted before, nothing changes.
    expect(await (await postback('outage-reg-1')).json()).toMatchObject({ status: 'duplicate' });
    expect(await client.hget(day, field)).toBe('1');
  }, 90_000);

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
      await expect
        .poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 20_000, interval: 200 })
        .toBe(before + CLICKS);
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
    expect(ready.missing).toEqual(
      expect.arrayContaining(['redis', ...EXPECTED_SNAPSHOTS.map((id) => `snapshot ${id.kind}/${id.key} stale`)]),
    );
    const widget = await get('/v1/widgets/broad?fallback_geo=GB&limit=1', '81.2.77.2');
    expect(widget.status).toBe(200);
    expect(BroadWidgetPayload.parse(await widget.json()).stale).toBe(true);
    // It has never loaded the operators' postback secrets: a postback is a 503 to send again, not a forgery.
    const postback = await get(
      `/v1/postback?operator=kalshi&click_id=${newClickId(Date.now())}&event=registration&event_id=cold-1&sig=${'0'.repeat(64)}`,
      '81.2.77.3',
    );
    expect(postback.status).toBe(503);
    expect(postback.headers.get('retry-after')).toBe('5');

    await restartRedis();
    await expect
      .poll(async () => ((await (await get('/readyz', '81.2.77.1')).json()) as { missing: string[] }).missing, {
        timeout: 30_000,
        interval: 250,
      })
      .not.toContain('redis');
    await expect
      .poll(
        async () =>
          BroadWidgetPayload.parse(await (await get('/v1/widgets/broad?fallback_geo=GB&limit=1', '81.2.77.2')).json())
            .stale,
        { timeout: 30_000, interval: 250 },
      )
      .toBeUndefined();
  }, 90_000);

  it('SIGHUP to an API worker during an outage: it stops as on SIGTERM, spills, and every buffered click is counted', async () => {
    const cluster = await spawnProcess('src/main.ts', {
      ...env,
      API_WORKERS: '2',
      DATA_DIR: join(dir, 'cluster-data'),
    });
    try {
      await waitFor(`${cluster.base}/readyz`, (s) => s === 200, cluster, 60_000);
      const { link, operatorId, day, before } = await clickLink('81.2.78.1', cluster.base);
      const workers = apiWorkersOf(cluster);
      expect(workers).toHaveLength(2);

      await killRedis();
      const CLICKS = 20;
      for (let v = 0; v < CLICKS; v++) {
        const click = await fetch(`${cluster.base}${link.pathname}${link.search}`, {
          headers: { 'user-agent': BROWSER, 'x-forwarded-for': `81.2.79.${v + 1}` },
          redirect: 'manual',
        });
        expect(click.status).toBe(302);
      }
      // Each worker in turn: the kernel may have handed every click to one of them.
      for (const pid of workers) {
        process.kill(pid, 'SIGHUP'); // a closed terminal, a log rotation
        await expect.poll(() => alive(pid), { timeout: 20_000, interval: 100 }).toBe(false);
      }
      // A worker's lines reach us through the primary, a moment after the worker is gone.
      const spilled = () =>
        logLines(cluster, 'clicks not written to Redis at stop; spilled to a file, replayed at the next start').reduce(
          (n, l) => n + (l.clicks as number),
          0,
        );
      await expect.poll(spilled, { timeout: 10_000, interval: 100 }).toBe(CLICKS);
      expect(logLines(cluster, 'clicks not written to Redis at stop; dropped')).toEqual([]);
      // Nothing queued for the away Redis holds the stop until its grace runs out.
      expect(logLines(cluster, 'exiting before the stop finished')).toEqual([]);

      // The primary restarted both; with Redis back, the new workers count what the old ones spilled.
      await restartRedis();
      await expect
        .poll(() => client.pfcount(clicksKey(operatorId, day)), { timeout: 30_000, interval: 200 })
        .toBe(before + CLICKS);
      expect(cluster.child.exitCode).toBeNull();
    } finally {
      await cluster.stop();
    }
  }, 120_000);

  it('a data folder it cannot write is reported before anything needs it, and the stop says exactly how many clicks it lost', async () => {
    // Owned by root and private (mkdtemp's 0700): the API, run as nobody, cannot write there. Run
    // as another user, the folder is made read-only instead (root would write through that mode).
    const folder = mkdtempSync(join(tmpdir(), 'pw-readonly-'));
    if (process.getuid?.() !== 0) chmodSync(folder, 0o555);
    const adminPort = await freePort();
    const reader = await spawnProcess(
      'src/main.ts',
      { ...env, DATA_DIR: folder, ADMIN_PORT: String(adminPort) },
      unprivileged(),
    );
    try {
      await waitFor(`${reader.base}/readyz`, (s) => s === 200, reader, 60_000);
      const ready = (await (await fetch(`${reader.base}/readyz`)).json()) as {
        status: string;
        missing: string[];
        data_dir: { writable: boolean };
      };
      expect(ready).toMatchObject({ status: 'degraded', data_dir: { writable: false } });
      expect(ready.missing).toContain('data folder not writable (EACCES)');
      expect(await scrape(adminPort, 'predictwire_data_dir_writable')).toBe(0);
      await expect
        .poll(
          () =>
            logLines(
              reader,
              'data folder cannot take spilled counts: clicks and impressions not written to Redis at a stop would be lost',
            ).length,
          { timeout: 5_000 },
        )
        .toBe(1);

      const { link, operatorId, day, before } = await clickLink('81.2.80.1', reader.base);
      await killRedis();
      const CLICKS = 7;
      for (let v = 0; v < CLICKS; v++) {
        const click = await fetch(`${reader.base}${link.pathname}${link.search}`, {
          headers: { 'user-agent': BROWSER, 'x-forwarded-for': `81.2.81.${v + 1}` },
          redirect: 'manual',
        });
        expect(click.status).toBe(302);
      }
      await reader.stop();
      expect(logLines(reader, 'clicks could not be spilled')).toHaveLength(1);
      expect(logLines(reader, 'clicks not written to Redis at stop; dropped').map((l) => l.dropped)).toEqual([CLICKS]);
      expect(readdirSync(folder)).toEqual([]); // no empty or half-written file left behind
      await restartRedis();
      expect(await client.pfcount(clicksKey(operatorId, day))).toBe(before);
    } finally {
      await reader.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
