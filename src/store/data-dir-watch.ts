/**
 * Whether the data folder can take what an API process would write there at stop (spilled counts)
 * and meanwhile (the disk copy of its snapshots): probed every CHECK_MS by writing and removing a
 * small file, and by the free space of its file system. A folder that is read-only, missing its
 * permissions or nearly full shows in /readyz and in metrics long before anything needs spilling,
 * instead of in the loss it causes at stop.
 */
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../runtime/log.js';

const CHECK_MS = 10_000;
/** Below this much free space the folder counts as nearly full: a full buffer of clicks and impressions spills some tens of MB. */
export const LOW_FREE_BYTES = 100 * 1024 * 1024;

export interface DataDirState {
  writable: boolean;
  /** Bytes free to this process on the folder's file system; undefined when it cannot be read. */
  freeBytes: number | undefined;
  /** Why a write failed (its error code), when it did. */
  error?: string;
}

/** Writes, then removes, a small file in `dir` (made if missing), and reads the space left. */
export async function probeDataDir(dir: string): Promise<DataDirState> {
  const file = join(dir, `.probe-${process.pid}`);
  let state: DataDirState;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, 'probe\n', { mode: 0o600 });
    state = { writable: true, freeBytes: undefined };
  } catch (err) {
    state = {
      writable: false,
      freeBytes: undefined,
      error: (err as NodeJS.ErrnoException).code ?? (err as Error).message,
    };
  } finally {
    await rm(file, { force: true }).catch(() => {});
  }
  try {
    const fs = await statfs(dir);
    state.freeBytes = fs.bavail * fs.bsize;
  } catch {
    // The folder cannot even be read: `writable` already says so.
  }
  return state;
}

/** What is wrong with `state`, in words for /readyz (`data folder not writable (EACCES)`), or undefined. */
export function dataDirProblem(state: DataDirState | undefined): string | undefined {
  if (!state) return undefined;
  if (!state.writable) return `data folder not writable (${state.error ?? 'unknown'})`;
  if (state.freeBytes !== undefined && state.freeBytes < LOW_FREE_BYTES)
    return `data folder nearly full (${Math.floor(state.freeBytes / 1024 / 1024)} MiB free)`;
  return undefined;
}

export class DataDirWatch {
  #state: DataDirState | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  /** The last probe's answer; undefined before the first. */
  get state(): DataDirState | undefined {
    return this.#state;
  }

  /** Probes now, then every CHECK_MS until `stop`. */
  async start(): Promise<void> {
    await this.check();
    this.#timer = setInterval(() => void this.check(), CHECK_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Probes the folder; logs when it turns unwritable or nearly full, and when it recovers. */
  async check(): Promise<void> {
    const state = await probeDataDir(this.dir);
    const before = dataDirProblem(this.#state);
    const now = dataDirProblem(state);
    this.#state = state;
    if (now && now !== before) {
      this.log.error(
        { dir: this.dir, problem: now, free_bytes: state.freeBytes ?? null },
        'data folder cannot take spilled counts: clicks and impressions not written to Redis at a stop would be lost',
      );
    } else if (!now && before) {
      this.log.info({ dir: this.dir }, 'data folder writable again');
    }
  }
}
