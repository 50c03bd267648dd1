/**
 * The worker's own liveness beyond "the BullMQ worker runs": whether each schedule's jobs still
 * finish. A scheduler lost with Redis's data and not yet put back, a stuck worker, or a paused
 * queue all look alike from outside (nothing refreshes while the process seems fine), so `/healthz`
 * fails once a schedule has not finished a run, successful or failed, for `afterIntervals` of its
 * intervals plus SLACK_MS (a run may take the whole fetch deadline, and its retries wait), and a
 * supervisor restarts the worker. Time a Redis outage took does not count: a restart cannot help
 * then, and after it the clock starts again.
 */
import type { Schedule } from './schedules.js';

/** Room for one run at its fetch deadline (60 s) and its retries' backoff. */
export const SLACK_MS = 120_000;

export interface RefreshHealth {
  ok: boolean;
  /** Schedules overdue, with the seconds since their last finished run (or since the watch began). */
  overdue: Record<string, number>;
}

export class RefreshWatch {
  /** Schedule id → when a run last finished, or when watching began (or Redis came back). */
  readonly #since = new Map<string, number>();
  readonly #limitMs = new Map<string, number>();

  constructor(
    schedules: readonly Schedule[],
    afterIntervals: number,
    private readonly now: () => number,
  ) {
    for (const s of schedules) this.#limitMs.set(s.id, s.everyMs * afterIntervals + SLACK_MS);
    this.restart();
  }

  /** A run of schedule `id` finished (completed or failed). */
  finished(id: string): void {
    if (this.#limitMs.has(id)) this.#since.set(id, this.now());
  }

  /** Counts every schedule from now: at start, and when Redis is reachable again after an outage. */
  restart(): void {
    for (const id of this.#limitMs.keys()) this.#since.set(id, this.now());
  }

  health(): RefreshHealth {
    const now = this.now();
    const overdue: Record<string, number> = {};
    for (const [id, limit] of this.#limitMs) {
      const silent = now - this.#since.get(id)!;
      if (silent > limit) overdue[id] = Math.round(silent / 1000);
    }
    return { ok: Object.keys(overdue).length === 0, overdue };
  }
}
