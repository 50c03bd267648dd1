/**
 * Moves the time of processes a test starts. `testClock()` gives the test a clock and the
 * environment that hands it to spawned processes (spawnProcess preloads this file when
 * PW_TEST_CLOCK_FILE is set): each such process reads `Date.now()` and `new Date()` shifted by the
 * offset in that file, re-read whenever the test changes it, so the service's one clock
 * (src/model/clock.ts) moves with the test's without waiting for the wall clock.
 */
import { mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/model/clock.js';

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

/** In a spawned process (preloaded with --import): shifts Date by the offset in the file. */
function shiftThisProcess(file: string): void {
  const RealDate = Date;
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
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}

const file = process.env[ENV];
// Only when preloaded into a process a test started: importing this file in a test changes nothing.
if (file && process.env.VITEST === undefined) shiftThisProcess(file);
