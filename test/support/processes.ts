/** Starting the repository's entry points, and process and port probes. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const root = resolve(import.meta.dirname, '../..');
const CLOCK_PRELOAD = 'test/support/test-clock.ts';

export const portOpen = (port: number) =>
  new Promise<boolean>((done) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });

/** Running (not a zombie waiting to be reaped) per ps. */
export const alive = (pid: number) => {
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false; // ps exits 1 when the pid is gone
  }
};

/** "pid command line", for failure messages. */
export const describeProcess = (pid: number) => {
  try {
    return `${pid} ${execFileSync('ps', ['-o', 'cmd=', '-p', String(pid)], { encoding: 'utf8' }).trim()}`;
  } catch {
    return `${pid} (gone)`;
  }
};

/** Every descendant pid of `pid`, from ps. */
export function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of rows)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

/** The direct child of `pid` whose command line contains `needle`. */
export function childRunning(pid: number, needle: string): number | undefined {
  const rows = execFileSync('ps', ['-o', 'pid=,cmd=', '--ppid', String(pid)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  const row = rows.find((r) => r.includes(needle));
  return row ? Number(row.trim().split(/\s+/)[0]) : undefined;
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
}

/**
 * The node arguments that run `entry` (a path in the repository): the run's compiled copy
 * (test/support/test-build.ts) for the service's code, so a start pays no TypeScript compilation
 * (the launcher then starts its children compiled too; test/e2e/embedded.test.ts runs it through
 * tsx, as `npm start` does); tsx for anything else in TypeScript (test helpers); compiled
 * JavaScript (dist/) as it is. With a test
 * clock's `env` (test/support/test-clock.ts) the clock's preload comes first, from the same place
 * as the entry, so that it sets the clock module the entry's code imports.
 */
export function nodeArgsFor(entry: string, env: NodeJS.ProcessEnv): string[] {
  const clock = env.PW_TEST_CLOCK_FILE !== undefined;
  if (entry.endsWith('.js')) {
    if (clock) throw new Error(`${entry}: compiled JavaScript has no test clock preload`);
    return [resolve(root, entry)];
  }
  if (/^(src|workers)\//.test(entry)) {
    const built = (path: string) => join(inject('builtRoot'), path.replace(/\.ts$/, '.js'));
    return [...(clock ? ['--import', built(CLOCK_PRELOAD)] : []), built(entry)];
  }
  return ['--import', 'tsx', ...(clock ? ['--import', resolve(root, CLOCK_PRELOAD)] : []), resolve(root, entry)];
}

/** Spawns `entry` in the repository with `args` (see nodeArgsFor), collecting its output. */
export function spawnEntry(entry: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [...nodeArgsFor(entry, env), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  return { child, output: () => out, exit };
}

/** Resolves once `ready()` is true; throws with `context()` after `timeoutMs` (usable outside a test). */
export async function waitUntil(
  ready: () => boolean | Promise<boolean>,
  timeoutMs: number,
  context: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms:\n${context()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
