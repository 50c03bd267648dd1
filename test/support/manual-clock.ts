/**
 * A clock a test moves, with `Timers` (src/model/clock.ts) that fire as it moves: code given both
 * waits no wall-clock time for a silent socket, a poll interval or a window's end. Timers fire in
 * time order, each at its own time; between two, the I/O the first started gets a turn of the event
 * loop. What that I/O schedules in turn is due from the clock's time when it runs.
 */
import type { CancelTimer, Timers } from '../../src/model/clock.js';

interface Pending {
  at: number;
  /** Creation order: timers due at the same time fire in the order they were set. */
  order: number;
  fn: () => void;
  every: number | undefined;
  cancelled: boolean;
}

export class ManualClock {
  #ms: number;
  #order = 0;
  #pending: Pending[] = [];

  constructor(startMs: number) {
    this.#ms = startMs;
  }

  /** The time (a `Clock`). */
  readonly now = (): number => this.#ms;

  readonly timers: Timers = {
    after: (ms, fn) => this.#add(ms, fn, undefined),
    every: (ms, fn) => this.#add(ms, fn, Math.max(1, ms)),
  };

  #add(ms: number, fn: () => void, every: number | undefined): CancelTimer {
    const timer: Pending = { at: this.#ms + Math.max(0, ms), order: this.#order++, fn, every, cancelled: false };
    this.#pending.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Timers set and not yet fired or cancelled. */
  get pending(): number {
    return this.#pending.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward to `ms`, firing every timer due by then. */
  async advanceTo(ms: number): Promise<void> {
    for (;;) {
      this.#pending = this.#pending.filter((t) => !t.cancelled);
      let next: Pending | undefined;
      for (const t of this.#pending)
        if (!next || t.at < next.at || (t.at === next.at && t.order < next.order)) next = t;
      if (!next || next.at > ms) break;
      this.#ms = Math.max(this.#ms, next.at);
      if (next.every === undefined) next.cancelled = true;
      else next.at += next.every;
      next.fn();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.#ms = Math.max(this.#ms, ms);
  }

  /** Moves time forward by `ms` (see advanceTo). */
  advance(ms: number): Promise<void> {
    return this.advanceTo(this.#ms + ms);
  }
}
