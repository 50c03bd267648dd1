/**
 * Counts that could not be written to Redis when a process stopped (clicks, impressions), kept on
 * local disk in the data folder and replayed by the next process to start there. One JSON line per
 * item; a file is written under a temporary name, flushed to disk and renamed, so a reader never
 * sees half of one and a failed write (a full or read-only folder) leaves nothing behind; a reader
 * claims a file by renaming it, so two processes starting at once never both replay it.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../runtime/log.js';
import { systemClock } from '../model/clock.js';

/** The spill folder inside the data folder. */
export const spillDir = (dataDir: string) => join(dataDir, 'spill');

/** Writes `items` as `{kind}-{pid}-{ms}.jsonl` in `dir`, whole or not at all; returns the file's path. */
export function spill(dir: string, kind: string, items: readonly unknown[]): string {
  mkdirSync(dir, { recursive: true });
  const name = `${kind}-${process.pid}-${systemClock()}.jsonl`;
  const tmp = join(dir, `.${name}.tmp`);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      const bytes = Buffer.from(`${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(dir, name));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return join(dir, name);
}

/**
 * The end of a buffer of counts at a stop (or a forced exit): `items`, which Redis did not take,
 * are spilled to `dir`, or else lost, and either way said in one line with the exact number; lost
 * ones are also passed to `dropped` (a counter). Returns whether they were spilled.
 */
export function settlePending(
  kind: 'clicks' | 'impressions' | 'postbacks',
  items: readonly unknown[],
  dir: string | undefined,
  log: Logger,
  dropped: (n: number) => void,
): boolean {
  if (items.length === 0) return true;
  if (dir) {
    try {
      const file = spill(dir, kind, items);
      log.warn(
        { [kind]: items.length, file },
        `${kind} not written to Redis at stop; spilled to a file, replayed at the next start`,
      );
      return true;
    } catch (err) {
      log.error({ err: (err as Error).message, dir }, `${kind} could not be spilled`);
    }
  }
  dropped(items.length);
  log.error({ dropped: items.length }, `${kind} not written to Redis at stop; dropped`);
  return false;
}

export interface Claimed {
  /** Every line of the claimed files, parsed (lines that do not parse are skipped and counted). */
  items: unknown[];
  unreadable: number;
  files: string[];
  /** Deletes the claimed files: call once their items are safely written. */
  done(): void;
}

/** True while process `pid` runs (signal 0 only asks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A spilled file nobody replays: never claimed, or claimed by a process that died before it was done. */
function unclaimed(name: string, kind: string): boolean {
  if (!name.startsWith(`${kind}-`)) return false;
  if (name.endsWith('.jsonl')) return true;
  const m = /\.jsonl\.replaying-(\d+)$/.exec(name);
  return m !== null && Number(m[1]) !== process.pid && !running(Number(m[1]));
}

/** Claims every spilled `{kind}` file in `dir` for this process (none when the folder does not exist). */
export function claimSpilled(dir: string, kind: string): Claimed {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => unclaimed(n, kind));
  } catch {
    names = [];
  }
  const files: string[] = [];
  const items: unknown[] = [];
  let unreadable = 0;
  for (const name of names) {
    const claimed = join(dir, `${name.replace(/\.replaying-\d+$/, '')}.replaying-${process.pid}`);
    try {
      renameSync(join(dir, name), claimed);
    } catch {
      continue; // another process claimed it first
    }
    files.push(claimed);
    for (const line of readFileSync(claimed, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        items.push(JSON.parse(line));
      } catch {
        unreadable++;
      }
    }
  }
  return {
    items,
    unreadable,
    files,
    done: () => {
      for (const f of files) unlinkSync(f);
      files.length = 0;
    },
  };
}

/**
 * Claimed files being replayed from the head of a queue (clicks, impressions): deleted once every
 * one of their items has been written, or once the queue was spilled again (their items are then
 * in the new file).
 */
export class Replay {
  #claimed: Claimed | undefined;
  #left = 0;

  /** Replays `claimed`, whose `items` items now head the queue. */
  begin(claimed: Claimed, items: number): void {
    this.#claimed = claimed;
    this.#left = items;
    this.written(0);
  }

  /** `n` items from the head of the queue are safe. */
  written(n: number): void {
    if (!this.#claimed) return;
    this.#left -= n;
    if (this.#left > 0) return;
    this.#claimed.done();
    this.#claimed = undefined;
  }

  /** The queue was spilled to a new file. */
  spilled(): void {
    this.written(this.#left);
  }
}
