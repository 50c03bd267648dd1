/**
 * The snapshot part of an API process: the in-memory snapshot cache, how fresh each snapshot is,
 * and their disk copy, seeded from that copy when Redis lacks them at start (a cold start).
 */
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { Logger } from '../runtime/log.js';
import type { Clock } from '../model/clock.js';
import type { ApiRedis } from './api-redis.js';
import { missingInRedis, seedFromDisk } from './cold-start.js';
import { EXPECTED_SNAPSHOTS } from './keys.js';
import { whenReady } from './redis.js';
import { SnapshotCache } from './snapshot-cache.js';
import { SnapshotDisk, snapshotDir } from './snapshot-disk.js';
import { type FreshnessOptions, SnapshotFreshness } from './snapshot-freshness.js';

export interface ApiSnapshots {
  snapshots: SnapshotCache;
  freshness: SnapshotFreshness;
  /** Serving the disk copy of some snapshots because Redis lacked them at start. */
  cold: boolean;
}

const laterOf = (a: string | undefined, b: string) => (a !== undefined && a > b ? a : b);
const earlierOf = (a: string, b: string) => (a < b ? a : b);

/**
 * Opens the snapshots; resolves once there is something to serve: Redis's snapshots, the disk
 * copy of the ones Redis lacks, or (neither) once Redis answers. Its stop writes the disk copy.
 */
export async function openSnapshots(
  life: Lifecycle,
  config: Pick<FreshnessOptions, 'refreshSeconds' | 'staleAfterIntervals'> & { dataDir: string },
  log: Logger,
  redis: ApiRedis,
  clock: Clock,
): Promise<ApiSnapshots> {
  const snapshots = new SnapshotCache(redis.redis, redis.subscriber, log);
  const freshness = new SnapshotFreshness(redis.redis, log, {
    refreshSeconds: config.refreshSeconds,
    staleAfterIntervals: config.staleAfterIntervals,
  });
  // Redis away at start: serve the disk copy of the last snapshots, marked stale, rather than nothing.
  const disk = await life.start(
    () => new SnapshotDisk(snapshotDir(config.dataDir), log),
    (copy) => copy.flush(),
  );
  life.onStop(() => freshness.stop());
  // Redis reachable but without snapshots (flushed, evicted): the same, for the ones it lacks.
  const missing = redis.atStart ? await missingInRedis(redis.requestRedis) : EXPECTED_SNAPSHOTS;
  const cold =
    missing.length > 0 && seedFromDisk(snapshots, freshness, snapshotDir(config.dataDir), log, missing, redis.atStart);
  if (!redis.atStart && !cold) await whenReady(redis.requestRedis);
  // A change stamped by a writer whose clock is ahead counts from now, as freshness ages it.
  snapshots.onChange((snap) =>
    disk.note(snap, laterOf(freshness.fetchedAt(snap), earlierOf(snap.changedAt, new Date(clock()).toISOString()))),
  );
  return { snapshots, freshness, cold };
}
