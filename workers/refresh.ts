/**
 * The shared shape of every refresh job: fetch from a source, validate, write the snapshot (which
 * publishes `pw:snap`). On failure (timeout, 429/5xx, data failing validation) the last good
 * snapshot stays, the failure streak is recorded (readiness turns stale after the configured age),
 * one warning is logged per streak, and the error is rethrown so BullMQ retries with backoff; the
 * next scheduled run tries again, so recovery needs no restart. Recovery is logged once too.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../src/log.js';
import type { SnapshotDataOf, SnapshotKind } from '../src/store/schemas.js';
import { recordFailure, writeSnapshot, type WriteResult } from '../src/store/snapshots.js';

export interface RefreshDeps {
  redis: Redis;
  log: Logger;
  now(): Date;
  /** Upper bound on one whole fetch (all its upstream calls and retries); default 60 s. */
  fetchTimeoutMs?: number;
}

const DEFAULT_FETCH_TIMEOUT_MS = 60_000;

export async function refreshSnapshot<K extends SnapshotKind>(
  deps: RefreshDeps,
  kind: K,
  key: string,
  fetch: (now: Date, signal: AbortSignal) => Promise<SnapshotDataOf<K>>,
): Promise<WriteResult> {
  const now = deps.now();
  try {
    // A hung upstream must not hold the job slot forever: the whole fetch shares one deadline.
    const signal = AbortSignal.timeout(deps.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS);
    const data = await fetch(now, signal);
    const result = await writeSnapshot(deps.redis, kind, key, data, now);
    if (result.endedFailures > 0) deps.log.info({ kind, key, failedAttempts: result.endedFailures }, 'refresh recovered');
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
