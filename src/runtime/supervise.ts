/**
 * Keeps one child process of the launcher running: a child that exits on its own is started again
 * after a backoff (1 s, doubling to 30 s; back to 1 s once it has stayed up for a minute), so a
 * crashed worker does not take the API down with it. With a liveness probe, a child that stops
 * answering it (hung, or stopped) for `hangMs` after having answered once is killed with SIGKILL
 * and so restarted the same way.
 */
import type { ChildProcess } from 'node:child_process';
import { stopChild } from './stop-child.js';
import { monotonicClock, type Clock } from '../model/clock.js';

/** Exit status of runProcess for a bad configuration: restarting would fail the same way. */
export const CONFIG_ERROR_EXIT = 2;

export interface SupervisorOptions {
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Up this long, a child's next crash starts from the minimum backoff again. */
  stableMs?: number;
  /** Measures how long a child ran and how long it has been silent (default: monotonic). */
  now?: Clock;
  /** Told of each exit and restart, in words. */
  notify(line: string): void;
  /** The child cannot start at all (bad configuration): the launcher gives up. */
  onFatal(name: string, code: number): void;
  /** How long `stop` lets the child shut down before SIGKILL (default: stopChild's). */
  stopGraceMs?: number;
  /** Asks the running child whether it is alive (its health endpoint); checked every second. */
  liveness?: { probe(child: ChildProcess): Promise<boolean>; hangMs: number };
}

const PROBE_EVERY_MS = 1_000;

export interface Supervised {
  readonly name: string;
  /** The running child, if any (undefined while waiting to restart). */
  current(): ChildProcess | undefined;
  /** How many times the child was started. */
  starts(): number;
  stop(): Promise<void>;
}

export function supervise(name: string, start: () => ChildProcess, opts: SupervisorOptions): Supervised {
  const minMs = opts.minBackoffMs ?? 1_000;
  const maxMs = opts.maxBackoffMs ?? 30_000;
  const stableMs = opts.stableMs ?? 60_000;
  const clock = opts.now ?? monotonicClock;
  let child: ChildProcess | undefined;
  let starts = 0;
  let backoff = minMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const run = () => {
    const startedAt = clock();
    const proc = start();
    child = proc;
    starts++;
    const watch = opts.liveness && watchLiveness(name, proc, opts.liveness, opts.notify, clock);
    proc.once('exit', (code, signal) => {
      clearInterval(watch);
      child = undefined;
      if (stopped) return;
      if (code === CONFIG_ERROR_EXIT) return opts.onFatal(name, code);
      if (clock() - startedAt >= stableMs) backoff = minMs;
      opts.notify(`${name} exited (${signal ?? `code ${code}`}); restarting in ${backoff / 1000} s`);
      timer = setTimeout(run, backoff);
      backoff = Math.min(backoff * 2, maxMs);
    });
  };
  run();

  return {
    name,
    current: () => child,
    starts: () => starts,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (child) await stopChild(child, opts.stopGraceMs);
    },
  };
}

/**
 * Probes `child` every second from its first good answer on; after `hangMs` without one it is
 * killed (SIGKILL), and its exit restarts it. A probe still pending counts as no answer.
 */
function watchLiveness(
  name: string,
  child: ChildProcess,
  liveness: NonNullable<SupervisorOptions['liveness']>,
  notify: (line: string) => void,
  clock: Clock,
): NodeJS.Timeout {
  let lastAnswer: number | undefined;
  let probing = false;
  const timer = setInterval(() => {
    if (lastAnswer !== undefined && clock() - lastAnswer > liveness.hangMs) {
      clearInterval(timer);
      notify(
        `${name} has not answered its health check for ${Math.round((clock() - lastAnswer) / 1000)} s; killing it`,
      );
      child.kill('SIGKILL');
      return;
    }
    if (probing) return;
    probing = true;
    liveness
      .probe(child)
      .then(
        (ok) => {
          if (ok) lastAnswer = clock();
        },
        () => {},
      )
      .finally(() => (probing = false));
  }, PROBE_EVERY_MS);
  timer.unref();
  return timer;
}
