/**
 * Starts a private redis-server on a free loopback port: the embedded default of `npm start` and the
 * Redis of every test. Never used when REDIS_URL is set.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DataDirLockedError, processAlive, readPid } from './data-lock.js';
import { freePort } from './free-port.js';
import { stopChild } from './stop-child.js';
import { monotonicClock } from '../model/clock.js';

export const INSTALL_HINT =
  'redis-server was not found on PATH. Install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.';

export class MissingRedisError extends Error {
  override name = 'MissingRedisError';
  constructor() {
    super(INSTALL_HINT);
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

function redisServerExists(): boolean {
  const r = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

/**
 * A tiny shell loop that kills redis-server once the process that started it is gone. A launcher
 * killed hard (SIGKILL, OOM) runs no cleanup, and redis-server has no parent-death option; the
 * loop also ends by itself when redis-server exits.
 */
function watchOwner(redisPid: number): ChildProcess {
  const loop = 'while kill -0 "$0" 2>/dev/null && kill -0 "$1" 2>/dev/null; do sleep 1; done; kill "$1" 2>/dev/null';
  const watchdog = spawn('sh', ['-c', loop, String(process.pid), String(redisPid)], { stdio: 'ignore' });
  watchdog.unref();
  return watchdog;
}

/**
 * Waits briefly for a redis-server left on `dataDir` by a launcher that was killed hard (its
 * watchdog stops it within a second or two).
 * @throws DataDirLockedError when one still runs.
 */
async function waitForOrphan(pidFile: string, dataDir: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const pid = readPid(pidFile);
    if (pid === undefined || !processAlive(pid)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new DataDirLockedError(`a redis-server (pid ${readPid(pidFile)}) still runs on ${dataDir}; stop it first.`);
}

function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = monotonicClock() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`redis-server exited with code ${child.exitCode}`));
      const sock = connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.end();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (monotonicClock() > deadline)
          reject(new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

export interface PrivateRedisOptions {
  /** Directory for AOF/RDB files; omit for a memory-only server (tests). */
  dataDir?: string;
}

/**
 * Starts redis-server and resolves once it accepts connections.
 * @throws MissingRedisError when the binary is not installed.
 */
export async function startPrivateRedis(opts: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  if (!redisServerExists()) throw new MissingRedisError();
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'yes',
    '--maxmemory-policy',
    'noeviction',
    '--loglevel',
    'warning',
  ];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    const pidFile = join(opts.dataDir, 'redis.pid');
    await waitForOrphan(pidFile, opts.dataDir);
    args.push('--dir', opts.dataDir, '--appendonly', 'yes', '--save', '60 1', '--pidfile', pidFile);
  } else {
    args.push('--save', '', '--appendonly', 'no');
  }
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const watchdog = watchOwner(child.pid!);
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    watchdog.kill();
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: async () => {
      watchdog.kill();
      await stopChild(child, 5_000);
    },
  };
}
