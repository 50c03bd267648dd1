/**
 * API_WORKERS=2 against a real Redis over real sockets: two worker processes answer on the one port,
 * the per-address WebSocket cap and /readyz's connection count hold for the whole API, the primary's
 * admin port aggregates both workers' metrics, a killed or hung worker is restarted while the port
 * keeps answering, SIGTERM drains and exits 0, and workers go when their primary is killed.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { openWebSocket } from '../support/ws-client.js';
import { freePort } from '../../src/runtime/free-port.js';
import { alive } from '../support/processes.js';
import { requestOnNewConnection } from '../support/api-workers.js';
import { useRedis } from '../support/redis.js';
import {
  advertiserKeys,
  spawnProcess,
  testEnv,
  waitFor,
  wsConnections,
  type ServiceProcess,
} from '../support/service.js';
import { packageVersion } from '../../src/runtime/build-info.js';

const redis = useRedis();
let feedWorker: ServiceProcess;
let api: ServiceProcess;
let adminPort: number;
const CAP = 12;

beforeAll(async () => {
  adminPort = await freePort();
  const env = testEnv(redis.url, {
    API_WORKERS: '2',
    ADMIN_PORT: String(adminPort),
    LOG_LEVEL: 'info',
    ACCESS_LOG_SAMPLE_RATE: '1',
    TRUST_PROXY: '127.0.0.1',
    WS_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
    RATE_LIMIT_WS_UPGRADE: '1000/60',
    DRAIN_SECONDS: '2',
    HANG_SECONDS: '3',
  });
  feedWorker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  // One worker may answer before the other listens: wait for the primary's word that all do.
  await vi.waitFor(() => expect(api.output()).toContain('"msg":"api workers listening"'), {
    timeout: 30_000,
    interval: 100,
  });
});

afterAll(async () => {
  await Promise.all([api?.stop(), feedWorker?.stop()]);
});

/** The pid and worker index of each access-log line for `route`. */
function answeredBy(route: string): Array<{ pid: number; worker: number }> {
  return api
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; route?: string; pid: number; worker?: number })
    .filter((l) => l.msg === 'request' && l.route === route)
    .map((l) => ({ pid: l.pid, worker: l.worker ?? 0 }));
}

const metrics = async () => (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
/** The value of a metric line (name with labels, as exposed). */
const metric = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

const openWs = (address: string) =>
  openWebSocket(`${api.base.replace('http', 'ws')}/v1/ws`, { 'x-forwarded-for': address });

/** /healthz requests workerPids() has sent: how many it takes depends on how the kernel spread them. */
let healthzSent = 0;

/**
 * The workers that answer fresh connections. The kernel spreads connections over the workers'
 * listening sockets; on a loaded machine one worker may take a long run of them, so ask until both
 * have answered (bounded), rather than a fixed number of times.
 */
async function workerPids(): Promise<Set<number>> {
  const before = answeredBy('/healthz').length;
  const seen = () =>
    new Set(
      answeredBy('/healthz')
        .slice(before)
        .map((a) => a.pid),
    );
  for (let i = 0; i < 200 && (i < 24 || seen().size < 2); i++, healthzSent++)
    expect(await requestOnNewConnection(`${api.base}/healthz`, {})).toBe(200);
  return seen();
}

describe('API_WORKERS=2', () => {
  it('two worker processes answer on the one port, each logging its worker index', async () => {
    const pids = await workerPids();
    expect(pids.size).toBe(2);
    expect(pids.has(api.child.pid!)).toBe(false); // the primary serves no traffic
    const workers = new Set(answeredBy('/healthz').map((a) => a.worker));
    expect([...workers].sort()).toEqual([1, 2]);
  });

  it('caps WebSocket connections per address across workers, and /readyz counts the whole API', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => openWs('203.0.113.9')));
    for (const ws of held) expect(ws).toBeInstanceOf(WebSocket);
    // Both workers hold some (the kernel spread them), yet one more from that address is refused on either.
    const text = await metrics();
    const perWorker = [1, 2].map((w) => metric(text, `predictwire_api_worker_ws_connections{worker="${w}"}`));
    expect(perWorker[0]! + perWorker[1]!).toBe(CAP);
    expect(
      perWorker.every((n) => n > 0),
      `connections per worker: ${perWorker.join(', ')}`,
    ).toBe(true);
    const more = await Promise.all(Array.from({ length: 8 }, () => openWs('203.0.113.9')));
    expect(more).toEqual(Array(8).fill(429));
    const other = await openWs('203.0.113.10');
    expect(other).toBeInstanceOf(WebSocket);
    // Every worker's /readyz reports the API's connections, not its own share.
    await expect.poll(() => wsConnections(api), { timeout: 5_000 }).toBe(CAP + 1);
    for (let i = 0; i < 6; i++) expect(await wsConnections(api)).toBe(CAP + 1);
    await expect
      .poll(async () => metric(await metrics(), 'predictwire_ws_connections'), { timeout: 5_000 })
      .toBe(CAP + 1);
    for (const ws of held) (ws as WebSocket).close();
    await expect.poll(() => wsConnections(api), { timeout: 5_000 }).toBe(1);
    (other as WebSocket).close();
    await expect.poll(() => wsConnections(api), { timeout: 5_000 }).toBe(0);
  });

  it("the admin port aggregates both workers' metrics", async () => {
    const before = metric(await metrics(), 'predictwire_http_requests_total{route="/healthz",status="200"}');
    const sentBefore = healthzSent;
    const pids = await workerPids();
    expect(pids.size).toBe(2);
    const text = await metrics();
    expect(metric(text, 'predictwire_api_workers')).toBe(2);
    expect(metric(text, 'predictwire_http_requests_total{route="/healthz",status="200"}')).toBe(
      (Number.isNaN(before) ? 0 : before) + (healthzSent - sentBefore),
    );
    // What runs, once (not once per worker), and Redis in use.
    expect(metric(text, `predictwire_build_info{version="${packageVersion()}",node="${process.versions.node}"}`)).toBe(
      1,
    );
    expect(metric(text, 'predictwire_redis_up')).toBe(1); // the least of the workers'
  });

  it('counts authenticated requests per advertiser across workers', async () => {
    const id = 'workers-metrics';
    const key = await advertiserKeys(redis.client).create(id, 'Workers Metrics', new Date());
    const REQUESTS = 6;
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`${api.base}/advertiser/v1/widgets/events`, {
        headers: { 'x-advertiser-id': id, 'x-api-key': key, connection: 'close' },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(metric(await metrics(), `predictwire_advertiser_requests_total{advertiser="${id}"}`)).toBe(REQUESTS);
  });

  it('counts widget bodies built by kind across workers: per variant and data version, not per request', async () => {
    const builds = async () => metric(await metrics(), 'predictwire_payload_builds_total{kind="events"}') || 0;
    const catalog = (await (await fetch(`${api.base}/v1/catalog`)).json()) as { events: Array<{ slug: string }> };
    // A variant no other test reads (its own advertiser hint): nothing of it is cached yet.
    const path = `/v1/widgets/event?slug=${catalog.events[0]!.slug}&fallback_geo=US-NJ&advertiser_id=builds-metric`;
    const before = await builds();
    const READS = 30;
    for (let i = 0; i < READS; i++) {
      const res = await fetch(`${api.base}${path}`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const built = (await builds()) - before;
    // Each worker that answered built it once, and again on its next read after each events refresh
    // (every second here): a few builds for the burst, never one per read.
    expect(built).toBeGreaterThanOrEqual(1);
    expect(built).toBeLessThanOrEqual(READS / 3);
  });

  it('restarts a worker killed with SIGKILL, frees its WebSocket slots, and the port keeps answering', async () => {
    const sockets = await Promise.all(Array.from({ length: CAP }, () => openWs('198.51.100.7')));
    const [victim, survivor] = [...(await workerPids())];
    process.kill(victim!, 'SIGKILL');
    // Wait until the primary has reaped it: only then are all its threads gone and its listening
    // socket closed (ps shows the main thread a zombie earlier, and a connection the kernel queues on
    // the dying socket meanwhile is reset). From then on the survivor answers everything.
    await expect
      .poll(() => api.output(), { timeout: 10_000 })
      .toMatch(/api worker \d exited \(SIGKILL\); restarting in 1 s/);
    for (let i = 0; i < 10; i++) expect(await requestOnNewConnection(`${api.base}/healthz`, {})).toBe(200);
    await expect.poll(async () => (await workerPids()).size, { timeout: 30_000, interval: 500 }).toBe(2);
    const now = await workerPids();
    expect(now.has(survivor!)).toBe(true);
    expect(now.has(victim!)).toBe(false);
    // The dead worker's connections no longer count against the address.
    const open = sockets.filter((ws) => ws instanceof WebSocket && ws.readyState === WebSocket.OPEN) as WebSocket[];
    expect(open.length).toBeLessThan(CAP);
    const extra = await openWs('198.51.100.7');
    expect(extra).toBeInstanceOf(WebSocket);
    for (const ws of [...open, extra as WebSocket]) ws.close();
    expect(metric(await metrics(), 'predictwire_api_worker_restarts_total')).toBe(1);
  }, 60_000);

  it('kills and restarts a hung worker (stopped, so silent), and the port keeps answering', async () => {
    const [victim, survivor] = [...(await workerPids())];
    process.kill(victim!, 'SIGSTOP');
    // Until the primary notices, connections the kernel hands to the stopped worker wait: ask nothing.
    await expect
      .poll(() => api.output(), { timeout: 15_000, interval: 100 })
      .toContain('"msg":"api worker hung (no heartbeat); killing it"');
    // Reaped: the second restart of this run (the first was the SIGKILL above).
    await expect
      .poll(() => api.output().match(/api worker \d exited \(SIGKILL\); restarting in/g)?.length, { timeout: 10_000 })
      .toBe(2);
    expect(alive(victim!)).toBe(false);
    await expect.poll(async () => (await workerPids()).size, { timeout: 30_000, interval: 500 }).toBe(2);
    const now = await workerPids();
    expect(now.has(survivor!)).toBe(true);
    expect(now.has(victim!)).toBe(false);
    const text = await metrics();
    expect(metric(text, 'predictwire_api_worker_hangs_total')).toBe(1);
    expect(metric(text, 'predictwire_api_worker_restarts_total')).toBe(2);
  }, 60_000);

  it('SIGTERM to the primary drains every worker (/readyz 503 while still serving) and exits 0', async () => {
    const pids = await workerPids();
    const exit = new Promise<number | null>((r) => api.child.once('exit', (code) => r(code)));
    api.child.kill('SIGTERM');
    await expect
      .poll(() => requestOnNewConnection(`${api.base}/readyz`, {}), { timeout: 5_000, interval: 100 })
      .toBe(503);
    expect(await requestOnNewConnection(`${api.base}/healthz`, {})).toBe(200);
    expect(await exit).toBe(0);
    for (const pid of pids) expect(alive(pid), `worker ${pid}`).toBe(false);
    expect(api.output().match(/restarting in/g)).toHaveLength(2); // the kills above; a drained worker is not restarted
  }, 30_000);
});

describe('API_WORKERS=2, primary killed', () => {
  it('its workers exit', async () => {
    const primary = await spawnProcess(
      'src/main.ts',
      testEnv(redis.url, { API_WORKERS: '2', LOG_LEVEL: 'info', ACCESS_LOG_SAMPLE_RATE: '1' }),
    );
    try {
      await waitFor(`${primary.base}/healthz`, (s) => s === 200, primary);
      await expect
        .poll(
          () =>
            /"worker":2.*"msg":"api listening"/.test(primary.output()) &&
            /"worker":1.*"msg":"api listening"/.test(primary.output()),
          { timeout: 30_000 },
        )
        .toBe(true);
      const pids = primary
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"api listening"'))
        .map((l) => (JSON.parse(l) as { pid: number }).pid);
      expect(pids).toHaveLength(2);
      primary.child.kill('SIGKILL');
      await expect.poll(() => pids.filter(alive), { timeout: 25_000, interval: 200 }).toEqual([]);
    } finally {
      await primary.stop();
    }
  }, 60_000);
});

describe('API_WORKERS=2, port taken', () => {
  it('fails the start as a single process would (exit 1), leaving no worker behind', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r)); // without SO_REUSEPORT: not shareable
    try {
      const primary = await spawnProcess('src/main.ts', testEnv(redis.url, { API_WORKERS: '2', PORT: String(port) }));
      const code = await new Promise<number | null>((r) => primary.child.once('exit', (c) => r(c)));
      expect(code, primary.output()).toBe(1);
      expect(primary.output()).toMatch(/api worker \d exited before listening \(code 1\)/);
    } finally {
      holder.close();
    }
  }, 60_000);
});
