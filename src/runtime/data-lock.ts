/**
 * One launcher per data folder. Two redis-servers appending to the same AOF files corrupt each
 * other, so the launcher takes an exclusive pidfile before starting one. A pidfile whose process is
 * gone (the launcher was killed hard) is stale and removed.
 */
import { readFileSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** True while `pid` exists (a process we may not signal still exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in `file`, or undefined when the file is missing or holds no pid. */
export function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes `dir`/launcher.pid for this process and returns its release function.
 * @throws DataDirLockedError when a live process holds it.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'launcher.pid');
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPid(file);
    if (holder !== undefined && holder !== process.pid && processAlive(holder)) {
      throw new DataDirLockedError(
        `${dir} is in use by another npm start (pid ${holder}); stop it first, or set DATA_DIR to another folder.`,
      );
    }
    unlinkSync(file); // stale: its launcher is gone (or it was half-written); take it over
  }
  return () => {
    if (readPid(file) === process.pid) unlinkSync(file);
  };
}
