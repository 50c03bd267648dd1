/** A start without Redis: the snapshot caches seeded from the disk copy of the last snapshots. */
import type { Logger } from '../log.js';
import type { SnapshotCache } from './snapshot-cache.js';
import { readPersistedSnapshots } from './snapshot-disk.js';
import type { SnapshotFreshness } from './snapshot-freshness.js';

/** Seeds the caches from the disk copy, marked stale; false when there is none. */
export function seedFromDisk(snapshots: SnapshotCache, freshness: SnapshotFreshness, dir: string, log: Logger): boolean {
  const copies = readPersistedSnapshots(dir, log);
  if (copies.length === 0) return false;
  for (const { snapshot, fetchedAt } of copies) freshness.seedFromDisk(snapshot, fetchedAt);
  snapshots.seed(copies.map((c) => c.snapshot));
  log.warn({ snapshots: copies.length, dir }, 'redis unreachable at start: serving the disk copy of the last snapshots, marked stale');
  return true;
}
