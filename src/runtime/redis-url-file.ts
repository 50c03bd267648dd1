/**
 * Where `npm start` records the URL of its private Redis, so tools run beside it (the advertiser CLI)
 * find it without REDIS_URL. The file exists only while the launcher runs.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processAlive, readPid } from './data-lock.js';

/** The launcher's data folder: DATA_DIR, else .data/ in the repository. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || resolve(import.meta.dirname, '../../.data'));
}

const urlFile = (dir: string) => join(dir, 'redis.url');

export function recordRedisUrl(dir: string, url: string): void {
  writeFileSync(urlFile(dir), `${url}\n`);
}

export function forgetRedisUrl(dir: string): void {
  rmSync(urlFile(dir), { force: true });
}

/** The URL a running launcher recorded in `dir`, if any (a launcher killed hard leaves a stale one). */
export function launcherRedisUrl(dir: string): string | undefined {
  const launcher = readPid(join(dir, 'launcher.pid'));
  if (launcher === undefined || !processAlive(launcher)) return undefined;
  try {
    return readFileSync(urlFile(dir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
