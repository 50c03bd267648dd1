/**
 * The time every part of the service reads: milliseconds since the epoch. Code whose behaviour
 * depends on time (live windows, freshness, quotas, report buckets, rate-limit windows) takes a
 * `Clock` rather than calling `Date.now` itself, so tests move time instead of waiting for it.
 */
export type Clock = () => number;

let wallClock: Clock = () => Date.now();

/**
 * The process's wall clock: the machine's, unless `runOnClock` put the process on another one
 * (a process a test starts runs on the test's clock, test/support/test-clock.ts).
 */
export const systemClock: Clock = () => wallClock();

/**
 * Puts this whole process on `clock`: every later `systemClock` read returns its time. Only a
 * module preloaded by a test calls it, before the service's code runs; nothing in the service does.
 */
export function runOnClock(clock: Clock): void {
  wallClock = clock;
}

/**
 * A clock for durations (since a child started, since a beat): it never jumps when the machine's
 * clock is set, and a test clock moving wall time leaves it alone.
 */
export const monotonicClock: Clock = () => performance.now();

/**
 * How far ahead of this process's clock another process's time stamp may be and still be taken as
 * is (NTP keeps servers within milliseconds; a second leaves room). A stamp further ahead is a
 * clock that lies: a tick is dropped, a snapshot's fetch time is clamped to when it was seen.
 */
export const MAX_CLOCK_SKEW_MS = 1_000;

/** Cancels a timer of `Timers` (a no-op once it has fired or been cancelled). */
export type CancelTimer = () => void;

/**
 * Scheduling in a clock's time: the process's own timers, or a test's, which fire as the test moves
 * its clock (test/support/manual-clock.ts). Code that waits on an upstream (a silent socket, a poll
 * interval, a window's end) takes `Timers` beside its `Clock`, so a test moves time instead of
 * waiting for it.
 */
export interface Timers {
  /** Runs `fn` once, `ms` from now. */
  after(ms: number, fn: () => void): CancelTimer;
  /** Runs `fn` every `ms`. */
  every(ms: number, fn: () => void): CancelTimer;
}

export const systemTimers: Timers = {
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
  every(ms, fn) {
    const t = setInterval(fn, ms);
    return () => clearInterval(t);
  },
};
