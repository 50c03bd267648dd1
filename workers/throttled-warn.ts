import type { Logger } from '../src/runtime/log.js';
import { monotonicClock, type Clock } from '../src/model/clock.js';

/**
 * A warn logger for errors that repeat while Redis is away (BullMQ emits one per retry per
 * connection): the first is logged, then at most one line per `everyMs` with how many were skipped.
 */
export function throttledWarn(
  log: Logger,
  msg: string,
  everyMs = 30_000,
  now: Clock = monotonicClock,
): (err: Error) => void {
  let lastMs = -Infinity;
  let skipped = 0;
  return (err) => {
    const at = now();
    if (at - lastMs < everyMs) {
      skipped++;
      return;
    }
    log.warn({ err: err.message, ...(skipped ? { skipped } : {}) }, msg);
    lastMs = at;
    skipped = 0;
  };
}
