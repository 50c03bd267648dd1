/**
 * Starts a private redis-server on a free loopback port: the embedded default of `npm start` and the
 * Redis of every test. Never used when REDIS_URL is set.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { stopChild } from './stop-child.js';

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

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function redisServerExists(): boolean {
  const r = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
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
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`));
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
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes', '--maxmemory-policy', 'noeviction', '--loglevel', 'warning'];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('--dir', opts.dataDir, '--appendonly', 'yes', '--save', '60 1');
  } else {
    args.push('--save', '', '--appendonly', 'no');
  }
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: () => stopChild(child, 5_000),
  };
}
