/**
 * Drills on the `npm start` launcher: a crashed worker comes back while the API keeps answering, and
 * so does a stopped (hung) price feed;
 * the admin ports list the metrics; a second launcher on the same data folder is refused; the
 * advertiser CLI finds the launcher's private Redis by itself; a launcher killed hard takes its
 * Redis down, and the next one cleans up the stale lock and starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import {
  alive,
  childRunning,
  descendants,
  describeProcess,
  portOpen,
  spawnEntry,
  waitUntil,
  type Spawned,
} from '../support/processes.js';

const LAUNCHER = 'src/tools/embedded.ts';
const dataDir = mkdtempSync(join(tmpdir(), 'pw-launcher-'));
let launcher: Spawned;
let port: number;
let ports: { api: number; worker: number; feed: number };
let redisPort: number;
let stranger: Server | undefined;

/** A launcher's environment on fresh ports (the public one first, then the three admin ones). */
async function launcherEnv(): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    REFRESH_EVENTS_SECONDS: '1',
    REFRESH_SPORTSBOOK_SECONDS: '1',
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: String(await freePort()),
    FEED_HEALTH_PORT: String(await freePort()),
    // A stopped child is noticed within seconds.
    HANG_SECONDS: '4',
    // One API process rather than a primary and one per core: the drills are about the launcher's
    // children (embedded.test.ts starts the default, and api-workers.test.ts covers API workers).
    API_WORKERS: '1',
  };
  delete env.REDIS_URL;
  return env;
}

async function startLauncher(): Promise<Spawned> {
  const env = await launcherEnv();
  port = Number(env.PORT);
  ports = { api: Number(env.ADMIN_PORT), worker: Number(env.WORKER_HEALTH_PORT), feed: Number(env.FEED_HEALTH_PORT) };
  // Some other process answering HTTP on the feed's admin port, when a test asks for one.
  if (stranger) await new Promise<void>((r) => stranger!.listen(ports.feed, '127.0.0.1', r));
  const l = spawnEntry(LAUNCHER, [], env);
  await waitUntil(() => /predictwire is ready/.test(l.output()) || l.child.exitCode !== null, 60_000, l.output);
  if (l.child.exitCode !== null) throw new Error(`launcher exited ${l.child.exitCode}:\n${l.output()}`);
  redisPort = Number(/export REDIS_URL=redis:\/\/127\.0\.0\.1:(\d+)/.exec(l.output())?.[1]);
  return l;
}

const api = (path: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers });
const text = async (url: string) => (await fetch(url)).text();

/** Runs the advertiser CLI beside the launcher: no REDIS_URL, only the shared data folder. */
async function cli(...args: string[]): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.REDIS_URL;
  const run = spawnEntry('src/tools/advertiser.ts', args, env);
  const code = await run.exit;
  return { code, out: run.output() };
}

beforeAll(async () => {
  launcher = await startLauncher();
}, 90_000);

afterAll(async () => {
  if (launcher && launcher.child.exitCode === null) {
    launcher.child.kill('SIGINT');
    await launcher.exit;
  }
  stranger?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The banner's metrics line. */
const metricsLine = (l: Spawned) => /^ {2}metrics {6}(.*)$/m.exec(l.output())?.[1];

describe('npm start launcher', () => {
  it('prints logs for a person to read, not JSON', () => {
    expect(launcher.output()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO \(api\): api listening$/m);
    expect(launcher.output()).not.toMatch(/^\{"level"/m);
  });

  it('lists the metrics URL of each of its processes', () => {
    expect(metricsLine(launcher)).toBe(
      `http://127.0.0.1:${ports.api}/metrics (worker http://127.0.0.1:${ports.worker}/metrics, feed http://127.0.0.1:${ports.feed}/metrics)`,
    );
  });

  it('prints paste-ready export lines', () => {
    expect(launcher.output()).toMatch(/^ {4}export KEY=pwk_[A-Za-z0-9_-]{43}$/m);
    expect(launcher.output()).toMatch(/^ {4}export REDIS_URL=redis:\/\/127\.0\.0\.1:\d+$/m);
  });

  it('restarts a crashed worker while the API keeps answering', async () => {
    const before = childRunning(launcher.child.pid!, 'workers/main.');
    expect(before).toBeDefined();
    const statuses: number[] = [];
    let polling = true;
    const traffic = (async () => {
      while (polling) {
        const res = await api('/v1/widgets/sportsbook?league=NBA');
        statuses.push(res.status);
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    process.kill(before!, 'SIGKILL');
    await expect
      .poll(() => launcher.output(), { timeout: 10_000 })
      .toMatch(/worker exited \(SIGKILL\); restarting in 1 s/);
    await expect
      .poll(() => childRunning(launcher.child.pid!, 'workers/main.'), { timeout: 30_000, interval: 200 })
      .not.toBe(before);
    // The new worker is up when its health port answers again.
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${ports.worker}/healthz`).catch(() => undefined))?.status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(200);
    polling = false;
    await traffic;

    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(launcher.child.exitCode).toBeNull();
    expect((await api('/readyz')).status).toBe(200);
  }, 60_000);

  it('restarts a hung (stopped) child that no longer answers its health check', async () => {
    const before = childRunning(launcher.child.pid!, 'workers/feed/main.')!;
    process.kill(before, 'SIGSTOP');
    await expect
      .poll(() => launcher.output(), { timeout: 20_000, interval: 200 })
      .toMatch(/feed has not answered its health check for \d+ s; killing it/);
    await expect
      .poll(() => childRunning(launcher.child.pid!, 'workers/feed/main.'), { timeout: 30_000, interval: 200 })
      .not.toBe(before);
    expect(alive(before)).toBe(false);
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${ports.feed}/healthz`).catch(() => undefined))?.status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(200);
  }, 60_000);

  it('serves metrics on the admin ports only', async () => {
    const apiMetrics = await text(`http://127.0.0.1:${ports.api}/metrics`);
    for (const series of [
      'predictwire_snapshot_age_seconds{kind="events",key="all"}',
      'predictwire_snapshot_stale{kind="sportsbook",key="NBA"}',
      'predictwire_live_ticks_applied_total',
      'predictwire_price_feed_age_seconds{asset="BTC"}',
      'predictwire_price_feed_stale{asset="ETH"}',
      'process_cpu_seconds_total',
    ]) {
      expect(apiMetrics).toContain(series);
    }
    expect(Number(/^predictwire_live_ticks_applied_total (\d+)/m.exec(apiMetrics)?.[1])).toBeGreaterThan(0);
    expect(await text(`http://127.0.0.1:${ports.worker}/metrics`)).toMatch(
      /^predictwire_queue_jobs\{queue="pw-refresh",state="delayed"\} \d+$/m,
    );
    expect(await text(`http://127.0.0.1:${ports.feed}/metrics`)).toMatch(
      /^predictwire_feed_ticks_published_total\{asset="BTC"\} [1-9]\d*$/m,
    );
    expect((await fetch(`http://127.0.0.1:${ports.feed}/healthz`)).status).toBe(200);
    // Never on the public port.
    expect((await api('/metrics')).status).toBe(404);
  });

  it('refuses a second launcher on the same data folder', async () => {
    const env = await launcherEnv();
    const second = spawnEntry(LAUNCHER, [], env);
    expect(await second.exit).toBe(1);
    expect(second.output().trim()).toMatch(
      new RegExp(`^${dataDir}.* is in use by another npm start \\(pid ${launcher.child.pid}\\)`),
    );
    expect(await portOpen(Number(env.PORT))).toBe(false);
  }, 30_000);

  it('the advertiser CLI finds the private Redis by itself; rotation overlaps, retire ends it', async () => {
    const created = await cli('create', 'cli-co', 'CLI Co', '--json');
    expect(created.code, created.out).toBe(0);
    const first = (JSON.parse(created.out) as { apiKey: string }).apiKey;
    const events = (key: string) =>
      api('/advertiser/v1/widgets/events', { 'x-advertiser-id': 'cli-co', 'x-api-key': key }).then((r) => r.status);
    expect(await events(first)).toBe(200);

    const second = (JSON.parse((await cli('rotate', 'cli-co', '--json')).out) as { apiKey: string }).apiKey;
    expect([await events(first), await events(second)]).toEqual([200, 200]);
    const listed = JSON.parse((await cli('list', '--json')).out) as Array<{
      id: string;
      keys: Array<{ createdAt: string; lastUsedAt?: string }>;
    }>;
    const keys = listed.find((a) => a.id === 'cli-co')!.keys;
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => k.lastUsedAt !== undefined && Date.parse(k.createdAt) > 0)).toBe(true);

    expect((await cli('retire', 'cli-co')).code).toBe(0);
    expect([await events(first), await events(second)]).toEqual([401, 200]);
    expect((await cli('revoke', 'cli-co')).code).toBe(0);
    expect(await events(second)).toBe(401);
  }, 60_000);

  it('killed hard, it takes its Redis down; the next launcher cleans the stale lock and starts', async () => {
    const pids = descendants(launcher.child.pid!);
    launcher.child.kill('SIGKILL');
    await launcher.exit;
    await expect.poll(() => portOpen(redisPort), { timeout: 15_000, interval: 200 }).toBe(false);
    await expect.poll(() => pids.filter(alive).map(describeProcess), { timeout: 20_000, interval: 200 }).toEqual([]);
    // The CLI no longer trusts the URL the dead launcher recorded.
    const orphanCli = await cli('list');
    expect(orphanCli.code).toBe(1);
    expect(orphanCli.out.trim()).toMatch(/^no Redis to talk to/);

    stranger = createServer((_req, res) => res.end('{"status":"ok"}'));
    launcher = await startLauncher();
    expect((await api('/readyz')).status).toBe(200);
    // Another process holds the feed's admin port: the banner says so instead of showing its URL.
    expect(metricsLine(launcher)).toContain(`feed port ${ports.feed} taken by another process: no metrics`);
    expect(metricsLine(launcher)).not.toContain(`:${ports.feed}/metrics`);
    // Data survived: the advertiser created before the crash is still there (revoked).
    expect((await cli('list')).out).toMatch(/^cli-co\trevoked/m);
  }, 120_000);
});
