/**
 * The shared shape of every refresh job: fetch from a source, validate, write the snapshot (which
 * publishes `pw:snap`). On failure the last good snapshot stays, the failure streak is recorded,
 * and the error is rethrown so BullMQ retries with backoff.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../src/log.js';
import type { SnapshotDataOf, SnapshotKind } from '../src/store/schemas.js';
import { recordFailure, writeSnapshot } from '../src/store/snapshots.js';

export interface RefreshDeps {
  redis: Redis;
  log: Logger;
  now(): Date;
}

export async function refreshSnapshot<K extends SnapshotKind>(
  deps: RefreshDeps,
  kind: K,
  key: string,
  fetch: (now: Date) => Promise<SnapshotDataOf<K>>,
): Promise<{ version: number }> {
  const now = deps.now();
  try {
    const data = await fetch(now);
    const result = await writeSnapshot(deps.redis, kind, key, data, now);
    deps.log.debug({ kind, key, version: result.version }, result.version ? 'snapshot written' : 'snapshot unchanged');
    return result;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const streak = await recordFailure(deps.redis, kind, key, message, now).catch(() => 0);
    // One warning per failure streak, not one per attempt.
    if (streak <= 1) deps.log.warn({ kind, key, err: message.slice(0, 500) }, 'refresh failed; keeping the last good snapshot');
    else deps.log.debug({ kind, key, streak }, 'refresh still failing');
    throw err;
  }
}
