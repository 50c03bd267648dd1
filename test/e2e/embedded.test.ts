/**
 * `npm start`'s launcher: starts a private redis-server, the API and the worker; SIGINT stops all of
 * them, leaving no process and no listening port; a missing redis-server, and a REDIS_URL or
 * Sentinel that does not answer, are one clear line saying what to set.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { alive, describeProcess as describe, descendants, portOpen, root, spawnEntry } from '../support/processes.js';

const LAUNCHER = 'src/tools/embedded.ts';
/** The first two tests run it as `npm start` does, through tsx; the others its compiled copy. */
const launcher = resolve(root, LAUNCHER);
// A data folder of its own: a developer's `npm start` holds the default one.
const dataDir = () => mkdtempSync(join(tmpdir(), 'pw-launcher-'));

suite('embedded launcher', () => {
  it('serves, then Ctrl-C leaves no process and no listening port', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REFRESH_EVENTS_SECONDS: '1',
      REFRESH_SPORTSBOOK_SECONDS: '1',
      DATA_DIR: dataDir(),
      ADMIN_PORT: '0',
      WORKER_HEALTH_PORT: '0',
      FEED_HEALTH_PORT: '0',
    };
    delete env.REDIS_URL;
    delete env.DEFAULT_GEO;
    const child = spawn(process.execPath, ['--import', 'tsx', launcher], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await expect.poll(() => out, { timeout: 45_000, interval: 200 }).toMatch(/predictwire is ready/);

    const redisPort = Number(/redis:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    expect(await portOpen(port)).toBe(true);
    expect(await portOpen(redisPort)).toBe(true);
    const key = /x-api-key=(pwk_\S+)/.exec(out)?.[1];
    const list = await fetch(`http://127.0.0.1:${port}/advertiser/v1/widgets/events`, {
      headers: { 'x-advertiser-id': 'demo-advertiser', 'x-api-key': key ?? '' },
    });
    expect(list.status).toBe(200);
    // The demo stands in as a US visitor, says so, and shows full widgets from localhost.
    expect(out).toMatch(/DEFAULT_GEO=US/);
    const broad = (await (await fetch(`http://127.0.0.1:${port}/v1/widgets/broad`)).json()) as {
      resolved_geo: string;
      operators: unknown[];
    };
    expect(broad.resolved_geo).toBe('US');
    expect(broad.operators.length).toBeGreaterThan(0);
    const pids = descendants(child.pid!);
    expect(pids.length).toBeGreaterThanOrEqual(3); // redis-server, api, worker

    child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).toBe(0);
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(redisPort)).toBe(false);
    // Helpers such as esbuild's service process exit when their parent's pipe closes, a moment later.
    await expect.poll(() => pids.filter(alive).map(describe), { timeout: 5_000, interval: 100 }).toEqual([]);
  }, 90_000);

  it('SIGTERM to npm (as a supervisor sends it) also stops everything npm start started', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir(),
      ADMIN_PORT: '0',
      WORKER_HEALTH_PORT: '0',
      FEED_HEALTH_PORT: '0',
      // One API process: the stop of API workers under their primary is the first test's and
      // api-workers.test.ts's; here what counts is npm's signal reaching the launcher's tree.
      API_WORKERS: '1',
    };
    delete env.REDIS_URL;
    const npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await expect.poll(() => out, { timeout: 45_000, interval: 200 }).toMatch(/predictwire is ready/);
    const redisPort = Number(/redis:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    const pids = descendants(npm.pid!);
    expect(pids.length).toBeGreaterThanOrEqual(5); // sh, launcher, redis-server, api, worker, feed

    npm.kill('SIGTERM'); // reaches npm and its shell, never the launcher below them
    await expect.poll(() => pids.filter(alive).map(describe), { timeout: 15_000, interval: 200 }).toEqual([]);
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(redisPort)).toBe(false);
  }, 90_000);

  it('says in one line how to install redis-server when it is missing', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: '/nonexistent' };
    delete env.REDIS_URL;
    const child = spawnEntry(LAUNCHER, [], env);
    let err = '';
    child.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await child.exit).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/redis-server was not found.*apt-get install redis-server/);
  }, 30_000);

  it('a REDIS_URL or REDIS_SENTINELS that does not answer is one line saying what to set', async () => {
    const nobody = await freePort();
    for (const [setting, value, hint] of [
      [
        'REDIS_URL',
        `redis://:secret@127.0.0.1:${nobody}`,
        /^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(from REDIS_URL\): .*; set REDIS_URL to a Redis that answers, or unset it/,
      ],
      [
        'REDIS_SENTINELS',
        `127.0.0.1:${nobody}`,
        /^cannot reach Redis at the primary "mymaster" of the sentinels 127\.0\.0\.1:\d+ \(from REDIS_SENTINELS\): .*; set REDIS_SENTINELS/,
      ],
    ] as const) {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir(), [setting]: value };
      if (setting === 'REDIS_SENTINELS') delete env.REDIS_URL;
      const child = spawnEntry(LAUNCHER, [], env);
      let err = '';
      child.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      expect(await child.exit, err).toBe(1);
      expect(err.trim().split('\n'), err).toEqual([expect.stringMatching(hint)]);
      expect(err).not.toContain('secret');
    }
  }, 60_000);
});
