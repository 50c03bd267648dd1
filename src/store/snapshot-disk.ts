/**
 * A local-disk copy of the snapshots an API process holds, in DATA_DIR/snapshots, so an API started
 * while Redis is unreachable can still serve the last data it had (marked stale) instead of
 * nothing. Written off the request path at most every WRITE_EVERY_MS per snapshot, each file under
 * a temporary name and renamed, so a reader never sees half of one; validated like Redis's copy
 * when read back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../runtime/log.js';
import { writeFileAtomic } from './atomic-file.js';
import { SNAPSHOT_KINDS, type Snapshot, type SnapshotKind } from './schemas.js';
import { parseSnapshot } from './snapshots.js';

const WRITE_EVERY_MS = 5_000;

/** The snapshot folder inside the data folder. */
export const snapshotDir = (dataDir: string) => join(dataDir, 'snapshots');

/** A snapshot as read back from disk, with when its data was last fetched from its source. */
export interface PersistedSnapshot {
  snapshot: Snapshot;
  fetchedAt: string;
}

const fileOf = (dir: string, kind: string, key: string) => join(dir, `${kind}-${encodeURIComponent(key)}.json`);

/** Keeps the disk copy current: `note` every snapshot the process takes in; `flush` at stop. */
export class SnapshotDisk {
  readonly #pending = new Map<string, PersistedSnapshot>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #failing = false;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  /** Queues `snapshot` (fetched at `fetchedAt`) for the next write. */
  note(snapshot: Snapshot, fetchedAt: string): void {
    this.#pending.set(`${snapshot.kind}\n${snapshot.key}`, { snapshot, fetchedAt });
    this.#timer ??= setTimeout(() => void this.flush(), WRITE_EVERY_MS).unref();
  }

  /** Writes what is queued (one write at a time). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  async #write(batch: PersistedSnapshot[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      for (const { snapshot, fetchedAt } of batch) {
        await writeFileAtomic(fileOf(this.dir, snapshot.kind, snapshot.key), JSON.stringify({ fetchedAt, snapshot }));
      }
    } catch (err) {
      // The disk copy is a fallback: failing to keep it never affects serving. Once per streak:
      // the data folder's own check (data-dir-watch.ts) keeps saying what is wrong.
      if (!this.#failing)
        this.log.warn({ err: (err as Error).message, dir: this.dir }, 'snapshot disk copy not written');
      this.#failing = true;
      return;
    }
    this.#failing = false;
  }
}

/** Every valid snapshot copy in `dir` (none when it does not exist); invalid files are logged and skipped. */
export function readPersistedSnapshots(dir: string, log: Logger): PersistedSnapshot[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: PersistedSnapshot[] = [];
  for (const name of names) {
    try {
      const { fetchedAt, snapshot } = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
        fetchedAt: unknown;
        snapshot: { kind: unknown };
      };
      const kind = snapshot?.kind as SnapshotKind;
      if (!SNAPSHOT_KINDS.includes(kind) || typeof fetchedAt !== 'string' || Number.isNaN(Date.parse(fetchedAt)))
        throw new Error('not a snapshot copy');
      out.push({ snapshot: parseSnapshot(kind, JSON.stringify(snapshot)), fetchedAt });
    } catch (err) {
      log.warn({ err: (err as Error).message, file: name }, 'snapshot disk copy unreadable; skipped');
    }
  }
  return out;
}
