/**
 * The shared shape of every refresh job: fetch from a source, check the result against the last
 * good snapshot (the quality gate), write it (which publishes `pw:snap`). On failure (timeout,
 * 429/5xx, an open circuit, data failing validation or the gate) the last good snapshot stays, the
 * failure streak and its reason are recorded in the snapshot meta (readiness shows them) and in
 * metrics, one warning is logged per streak, and the error is rethrown so BullMQ retries; the next
 * scheduled run tries again, so recovery needs no restart. Recovery is logged once too.
 * At most one refresh per snapshot runs at a time, across worker processes (a Redis lock).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ZodError } from 'zod';
import type { Logger } from '../src/runtime/log.js';
import {
  failureStreak,
  itemsDropped,
  itemsDroppedTotal,
  refreshesTotal,
  refreshFailuresTotal,
  refreshSeconds,
} from '../src/metrics/sources.js';
import { failureReason } from '../src/sources/failure-reason.js';
import { DROP_CLASSES, type Dropped } from '../src/sources/quality/dropped.js';
import { checkQuality } from '../src/sources/quality/gate.js';
import { isolateItems } from '../src/sources/quality/isolate.js';
import { screenItems } from '../src/sources/quality/screen.js';
import { QualityGateError, type QualityOptions } from '../src/sources/quality/options.js';
import type { FetchContext } from '../src/sources/source.js';
import { refreshLockKey } from '../src/store/keys.js';
import { SnapshotData, type SnapshotDataOf, type SnapshotKind } from '../src/store/schemas.js';
import {
  readMeta,
  readSnapshot,
  recordFailure,
  writeSnapshot,
  type DroppedItem,
  type WriteResult,
} from '../src/store/snapshots.js';
import type { Clock } from '../src/model/clock.js';

export interface RefreshDeps {
  redis: Redis;
  log: Logger;
  now: Clock;
  /** Upper bound on one whole fetch (all its upstream calls and retries); default 60 s. */
  fetchTimeoutMs?: number;
  /** Quality gate thresholds (defaults in src/sources/quality/options.ts). */
  quality?: QualityOptions;
}

/** A refresh's result; `skipped` when another refresh of the same snapshot was in flight. */
export type RefreshResult = WriteResult & { skipped?: true };

const DEFAULT_FETCH_TIMEOUT_MS = 60_000;

// Compare-and-delete: a lock that expired and was taken by another worker is not ours to free.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export async function refreshSnapshot<K extends SnapshotKind>(
  deps: RefreshDeps,
  kind: K,
  key: string,
  fetch: (ctx: Required<Pick<FetchContext, 'now' | 'signal' | 'dropped'>>) => Promise<SnapshotDataOf<K>>,
  /**
   * Told the fetched data (as the source returned it) and what was published of it (after the
   * quality gate) once it is written: sources that feed others use only accepted data.
   */
  accepted?: (data: SnapshotDataOf<K>, published: SnapshotDataOf<K>) => void,
): Promise<RefreshResult> {
  const labels = { kind, key };
  const timeoutMs = deps.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const lock = refreshLockKey(kind, key);
  const token = randomUUID();
  // The lock outlives the fetch deadline a little, so a crashed worker frees it on its own.
  if ((await deps.redis.set(lock, token, 'PX', timeoutMs + 10_000, 'NX')) !== 'OK') {
    refreshesTotal.inc({ ...labels, outcome: 'skipped' });
    deps.log.debug(labels, 'refresh already in flight; skipped');
    return { version: 0, endedFailures: 0, skipped: true };
  }
  const now = new Date(deps.now());
  const timer = refreshSeconds.startTimer(labels);
  try {
    // A hung upstream must not hold the job slot forever: the whole fetch shares one deadline.
    const dropped: Dropped[] = [];
    // Schema first (a ZodError says the data is malformed), then the gate (it says the data is worse).
    const fetched = await fetch({ now, signal: AbortSignal.timeout(timeoutMs), dropped });
    // One bad item (a negative volume) is dropped and reported; only a broken envelope fails.
    const parsed = SnapshotData[kind].parse(isolateItems(kind, fetched, dropped)) as SnapshotDataOf<K>;
    // What the gate compares against. Redis failing to answer fails the refresh: comparing with
    // nothing would let any loss through. Only a stored snapshot this code cannot parse (its schema
    // changed in a deploy) counts as absent, and says so.
    const last = await readSnapshot(deps.redis, kind, key).catch((err: unknown) => {
      if (!(err instanceof ZodError || err instanceof SyntaxError)) throw err;
      deps.log.warn(
        { kind, key, err: err.message.slice(0, 300) },
        'last good snapshot unreadable; this refresh is not compared against it',
      );
      return undefined;
    });
    // What the last good refresh dropped, held or lost: lost lines stay listed, held jumps keep their start.
    const carried = (await readMeta(deps.redis, kind, key))?.dropped?.items ?? [];
    const screened = screenItems(kind, last?.data, parsed, now, carried as Dropped[], deps.quality);
    dropped.push(...screened.dropped);
    const data = screened.data;
    const violations = checkQuality(kind, last?.data, data, now, deps.quality);
    if (violations.length > 0) throw new QualityGateError(violations);
    const result = await writeSnapshot(deps.redis, kind, key, data, now, dropped);
    reportNewDrops(deps.log, labels, dropped, carried);
    accepted?.(fetched, data);
    refreshesTotal.inc({ ...labels, outcome: result.version ? 'written' : 'unchanged' });
    timer({ outcome: result.version ? 'written' : 'unchanged' });
    failureStreak.set(labels, 0);
    for (const c of [...DROP_CLASSES, 'other'])
      itemsDropped.set({ ...labels, class: c }, dropped.filter((d) => (d.class ?? 'other') === c).length);
    if (result.endedFailures > 0)
      deps.log.info({ kind, key, failedAttempts: result.endedFailures }, 'refresh recovered');
    deps.log.debug(
      { kind, key, version: result.version, dropped: dropped.length },
      result.version ? 'snapshot written' : 'snapshot unchanged',
    );
    return result;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const reason = failureReason(err);
    const streak = await recordFailure(deps.redis, kind, key, message, now, reason).catch(() => 0);
    refreshesTotal.inc({ ...labels, outcome: 'failed' });
    timer({ outcome: 'failed' });
    refreshFailuresTotal.inc({ ...labels, reason });
    if (streak > 0) failureStreak.set(labels, streak);
    // One warning per failure streak, not one per attempt.
    if (streak <= 1)
      deps.log.warn(
        { kind, key, reason, err: message.slice(0, 500) },
        'refresh failed; keeping the last good snapshot',
      );
    else deps.log.debug({ kind, key, reason, streak }, 'refresh still failing');
    throw err;
  } finally {
    await deps.redis.eval(RELEASE, 1, lock, token).catch(() => undefined);
  }
}

/**
 * Logs and counts the items this refresh dropped, held or lost that the last good one did not:
 * once per streak, however many refreshes it lasts (the meta lists every one each time).
 */
function reportNewDrops(
  log: Logger,
  labels: { kind: string; key: string },
  dropped: readonly Dropped[],
  carried: readonly DroppedItem[],
): void {
  const known = new Set(carried.map((d) => `${d.class ?? 'other'} ${d.id}`));
  const fresh = dropped.filter((d) => !known.has(`${d.class ?? 'other'} ${d.id}`));
  if (fresh.length === 0) return;
  for (const d of fresh) itemsDroppedTotal.inc({ ...labels, class: d.class ?? 'other' });
  const byClass = Object.fromEntries(
    [...new Set(fresh.map((d) => d.class ?? 'other'))].map((c) => [
      c,
      fresh.filter((d) => (d.class ?? 'other') === c).length,
    ]),
  );
  log.warn(
    {
      ...labels,
      byClass,
      items: fresh.slice(0, 20).map(({ id, reason, class: c }) => ({ id, class: c, reason })),
      count: fresh.length,
    },
    'items dropped, held or lost; the rest published',
  );
}
