/** Starts the real API and worker processes (as `npm start` does) against a given Redis. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { AdvertiserKeys } from '../../src/auth/advertiser-keys.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/runtime/free-port.js';
import { nodeFlagsFor } from '../../src/runtime/node-flags.js';
import { stopChild } from '../../src/runtime/stop-child.js';
import { nodeArgsFor, root } from './processes.js';

export interface ServiceProcess {
  base: string;
  port: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `entry` (src/main.ts, workers/main.ts, workers/feed/main.ts, or their compiled dist/ copy)
 * with `env` on top of a quiet test environment, run as `nodeArgsFor` says (the run's compiled
 * service; with a test clock's `env`, on that clock).
 */
export async function spawnProcess(
  entry: string,
  env: Record<string, string>,
  /** Run as another user (`unprivileged()`). */
  user: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): Promise<ServiceProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), ...nodeArgsFor(entry, env)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => out,
    stop: () => stopChild(child),
  };
}

/**
 * Spawn options that run a process as `nobody` when the tests run as root, so that a folder's
 * permissions bind it (root writes through a read-only mode); none otherwise.
 */
export function unprivileged(): Pick<SpawnOptions, 'uid' | 'gid'> {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

/** The value of one series (name with its labels, as exposed) on the admin port `port`'s /metrics; NaN when absent. */
export async function scrape(port: number | string, series: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Polls `url` until `accept(status)` or the timeout; throws with the process output on failure. */
export async function waitFor(
  url: string,
  accept: (status: number) => boolean,
  proc: ServiceProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`process exited ${proc.child.exitCode}:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      last = String(res.status);
      await res.arrayBuffer();
      if (accept(res.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${url} (last: ${last}):\n${proc.output()}`);
}

/**
 * One-second refreshes, for a file that watches data change or turn stale between refreshes. The
 * rest run at the production intervals: a worker refreshing every second costs a stack about
 * 0.19 CPU-s a second against 0.08, which over the suite's stacks was 50 CPU-s.
 */
export const FAST_REFRESH = {
  REFRESH_EVENTS_SECONDS: '1',
  REFRESH_SPORTSBOOK_SECONDS: '1',
  REFRESH_METRICS_SECONDS: '2',
};

/** Environment for a service process in tests: production refresh intervals unless `extra` says otherwise. */
export function testEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: redisUrl,
    HOST: '127.0.0.1',
    REFRESH_EVENTS_SECONDS: '5',
    REFRESH_SPORTSBOOK_SECONDS: '5',
    REFRESH_METRICS_SECONDS: '10',
    // One API process, not a primary and one worker per core: what a test checks is the service,
    // and test/e2e/api-workers.test.ts covers the workers (a file asking for them sets API_WORKERS).
    API_WORKERS: '1',
    // No admin listeners unless a test asks: parallel test processes would fight over the defaults.
    ADMIN_PORT: '0',
    WORKER_HEALTH_PORT: '0',
    FEED_HEALTH_PORT: '0',
    // waitFor polls /readyz every 25 ms: far above the per-address production limit.
    RATE_LIMIT_READYZ: '100000/60',
    // A data folder per environment: spilled counts and snapshot copies never cross between tests.
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pw-data-')),
    ...extra,
  };
}

/**
 * Advertiser keys hashed with the pepper a service spawned from `testEnv` uses (the development
 * default), so keys created here verify there.
 */
export function advertiserKeys(redis: Redis): AdvertiserKeys {
  return new AdvertiserKeys(redis, loadConfig(testEnv('redis://127.0.0.1:6379')).apiKeyPepper);
}

/** Open WebSocket connections of an API process, from its /readyz counters. */
export async function wsConnections(proc: ServiceProcess): Promise<number> {
  const body = (await (await fetch(`${proc.base}/readyz`)).json()) as { websocket: { connections: number } };
  return body.websocket.connections;
}

/** A worker and an API process for the test file, started before its tests and stopped after. */
export interface ServicePair {
  api: ServiceProcess;
  worker: ServiceProcess;
}

/**
 * Starts a worker and an API process on `redis` (with `extra` settings) before the file's tests,
 * once the API is ready; `prepare` runs before waiting (keys to create); both stop after.
 */
export function useService(
  redis: { url: string },
  extra: Record<string, string> = {},
  prepare?: () => Promise<void>,
): ServicePair {
  const pair = {} as ServicePair;
  beforeAll(async () => {
    const env = testEnv(redis.url, extra);
    pair.worker = await spawnProcess('workers/main.ts', env);
    pair.api = await spawnProcess('src/main.ts', env);
    await prepare?.();
    await waitFor(`${pair.api.base}/readyz`, (s) => s === 200, pair.api);
  });
  afterAll(async () => {
    await Promise.all([pair.api?.stop(), pair.worker?.stop()]);
  });
  return pair;
}
