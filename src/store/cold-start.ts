/**
 * A start without the snapshots in Redis: Redis unreachable, or reachable but without them (flushed,
 * evicted, restarted without persistence). Either way the snapshot caches are seeded from the disk
 * copy of the last snapshots, marked stale, rather than answering 503 until the worker writes again.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { EXPECTED_SNAPSHOTS, snapKey, type SnapshotId } from './keys.js';
import type { SnapshotCache } from './snapshot-cache.js';
import { readPersistedSnapshots } from './snapshot-disk.js';
import type { SnapshotFreshness } from './snapshot-freshness.js';

/** The expected snapshots Redis does not hold (all of them when it cannot answer). */
export async function missingInRedis(redis: Redis): Promise<readonly SnapshotId[]> {
  const pipe = redis.pipeline();
  for (const id of EXPECTED_SNAPSHOTS) pipe.exists(snapKey(id.kind, id.key));
  const answers = await pipe.exec().catch(() => null);
  return EXPECTED_SNAPSHOTS.filter((_, i) => answers?.[i]?.[1] !== 1);
}

/**
 * Seeds the caches with the disk copies of the snapshots in `missing`, marked stale; false when
 * the disk holds none of them. `redisUp` says which case this is, for the log line.
 */
export function seedFromDisk(
  snapshots: SnapshotCache,
  freshness: SnapshotFreshness,
  dir: string,
  log: Logger,
  missing: readonly SnapshotId[],
  redisUp: boolean,
): boolean {
  const wanted = new Set(missing.map((id) => `${id.kind}:${id.key}`));
  const copies = readPersistedSnapshots(dir, log).filter((c) => wanted.has(`${c.snapshot.kind}:${c.snapshot.key}`));
  if (copies.length === 0) return false;
  for (const { snapshot, fetchedAt } of copies) freshness.seedFromDisk(snapshot, fetchedAt);
  snapshots.seed(copies.map((c) => c.snapshot));
  const why = redisUp ? 'redis has no snapshots at start (flushed, evicted or new)' : 'redis unreachable at start';
  log.warn({ snapshots: copies.length, dir }, `${why}: serving the disk copy of the last snapshots, marked stale`);
  return true;
}
