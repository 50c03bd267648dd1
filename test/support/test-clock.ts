/**
 * Moves the time of processes a test starts. `testClock()` gives the test a clock and the
 * environment that hands it to spawned processes (the spawners in processes.ts preload this file when
 * PW_TEST_CLOCK_FILE is set): the service's one clock (src/model/clock.ts) in each such process
 * reads the wall clock shifted by the offset in that file, re-read whenever the test changes it, so
 * the process moves with the test's time without waiting for the wall clock. Libraries that read
 * `Date` themselves (log time stamps, BullMQ's scheduling) keep the machine's time.
 */
import { mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOnClock, type Clock } from '../../src/model/clock.js';

const ENV = 'PW_TEST_CLOCK_FILE';

export interface TestClock {
  /** The shared time: the wall clock plus the offset. */
  now: Clock;
  /** The environment that puts a spawned process on this clock. */
  env: Record<string, string>;
  /** Moves the shared time by `ms` (processes see it within milliseconds; await what should follow). */
  advance(ms: number): void;
  /** Sets the shared time so that it now reads `ms`. */
  set(ms: number): void;
}

/** A clock shared by the test and the processes it starts with `env`. */
export function testClock(offsetMs = 0): TestClock {
  const file = join(mkdtempSync(join(tmpdir(), 'pw-clock-')), 'offset');
  let offset = offsetMs;
  const write = () => writeFileSync(file, String(offset));
  write();
  return {
    now: () => Date.now() + offset,
    env: { [ENV]: file },
    advance: (ms) => {
      offset += ms;
      write();
    },
    set: (ms) => {
      offset = ms - Date.now();
      write();
    },
  };
}

/**
 * In a spawned process (preloaded with --import): puts the service's one clock on the wall clock
 * plus the offset in the file. This imports the clock module of the code the process runs (the
 * preload is built beside it, test/support/test-build.ts, or both run through tsx), so the one
 * instance the service reads is the one set; `Date` itself is left alone.
 */
function followOffsetFile(file: string): void {
  let offset = 0;
  const read = () => {
    const raw = readFileSync(file, 'utf8').trim();
    // A write caught half way reads empty: keep the last offset until the next event.
    if (raw !== '' && Number.isFinite(Number(raw))) offset = Number(raw);
  };
  read();
  watch(join(file, '..'), { persistent: false }, () => {
    try {
      read();
    } catch {
      // the file is being replaced: the next event reads it
    }
  });
  runOnClock(() => Date.now() + offset);
}

const file = process.env[ENV];
// Only when preloaded into a process a test started: importing this file in a test changes nothing.
if (file && process.env.VITEST === undefined) followOffsetFile(file);
