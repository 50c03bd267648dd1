/** Processes the benchmark starts: pinned to CPUs when asked, with the open-file limit raised. */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { exitWithMe } from '../../src/runtime/parent-watch.js';
import { freePort } from '../../src/runtime/free-port.js';
import { nodeFlagsFor } from '../../src/runtime/node-flags.js';
import { stopChild } from '../../src/runtime/stop-child.js';
import type { ServiceProcess } from '../../test/support/service.js';
import { canPin, pinned } from './cpu.js';

export const root = resolve(import.meta.dirname, '../..');

// Raise the soft open-file limit to the hard one: thousands of sockets per process.
const RAISE_NOFILE = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';
/** Output kept per process for error messages; the rest is dropped (a busy server logs a lot). */
const KEEP_OUTPUT = 64 * 1024;

export interface SpawnOptions {
  /** CPU list for taskset (e.g. 0 or "0,1"); unpinned when omitted. */
  cpus?: number | string;
  /** Extra arguments after the script (for bench scripts). */
  args?: string[];
  /** Node flags before the script (e.g. bench/lib/heap.ts's inspectFlag). */
  nodeFlags?: string[];
}

/** Spawns a TypeScript entry (relative to the repo) through tsx, as a ServiceProcess of test/support/service.ts. */
export async function spawnTs(
  entry: string,
  env: Record<string, string>,
  opts: SpawnOptions = {},
): Promise<ServiceProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  // The API runs as deployed (its V8 flags); bench scripts and the other processes as they are.
  const node = [
    process.execPath,
    ...nodeFlagsFor(entry),
    ...(opts.nodeFlags ?? []),
    '--import',
    'tsx',
    resolve(root, entry),
    ...(opts.args ?? []),
  ];
  const child = spawn('sh', ['-c', RAISE_NOFILE, 'sh', ...pinned(opts.cpus, node)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...exitWithMe(), ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 2 * KEEP_OUTPUT) out = out.slice(-KEEP_OUTPUT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { base: `http://127.0.0.1:${port}`, port, child, output: () => out, stop: () => stopChild(child) };
}

/** Moves a running process (all its threads) to `cpus`; a no-op without taskset. */
export function pinPid(pid: number, cpus: number | string): void {
  if (canPin()) spawnSync('taskset', ['-a', '-p', '-c', String(cpus), String(pid)], { stdio: 'ignore' });
}

/** Waits until a child prints `line` on stdout (a bench script saying it listens). */
export function waitForLine(proc: ServiceProcess, line: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no "${line}" within ${timeoutMs} ms:\n${proc.output()}`)),
      timeoutMs,
    );
    const check = () => {
      if (proc.output().includes(line)) {
        clearTimeout(timer);
        proc.child.stdout?.off('data', check);
        done();
      }
    };
    proc.child.stdout?.on('data', check);
    proc.child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited ${code} before "${line}":\n${proc.output()}`));
    });
    check();
  });
}
