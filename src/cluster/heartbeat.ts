/**
 * Liveness of API workers: a worker whose event loop runs says so to its primary every second; the
 * primary kills (SIGKILL) a worker silent for longer than HANG_SECONDS, and its
 * supervisor starts it again as after a crash. A hung worker (an endless loop, a stopped process)
 * otherwise keeps its share of the port and answers nobody. A worker is watched from its first
 * beat on, so a slow start is never taken for a hang.
 */
import type { ChildProcess } from 'node:child_process';
import { Counter } from 'prom-client';
import { monotonicClock, type Clock } from '../model/clock.js';

export const HEARTBEAT_MS = 1_000;

export const workerHangs = new Counter({
  name: 'predictwire_api_worker_hangs_total',
  help: 'API workers killed by the primary for sending no heartbeat within HANG_SECONDS.',
});

/**
 * Worker side: calls `beat` at once, then every HEARTBEAT_MS while the event loop runs. The first
 * beat at once puts the worker under watch before it listens: one that hangs in its first second
 * is restarted too.
 */
export function startHeartbeat(beat: () => void): void {
  beat();
  setInterval(beat, HEARTBEAT_MS).unref();
}

/** Primary side: the last beat of each worker, checked every HEARTBEAT_MS. */
export class HangWatch {
  readonly #lastBeat = new Map<ChildProcess, number>();
  #timer: NodeJS.Timeout | undefined;

  /** `onHung` is called once per worker silent for more than `hangMs`. */
  constructor(
    private readonly hangMs: number,
    private readonly onHung: (child: ChildProcess, silentMs: number) => void,
    private readonly now: Clock = monotonicClock,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => this.#check(this.now()), HEARTBEAT_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  beat(child: ChildProcess): void {
    this.#lastBeat.set(child, this.now());
  }

  /** A worker that exited is watched no more. */
  forget(child: ChildProcess): void {
    this.#lastBeat.delete(child);
  }

  #check(nowMs: number): void {
    for (const [child, at] of this.#lastBeat) {
      if (nowMs - at <= this.hangMs) continue;
      this.#lastBeat.delete(child);
      workerHangs.inc();
      this.onHung(child, nowMs - at);
    }
  }
}
