/**
 * Snapshot read/write. Writes are one Lua script so the version bump, the value, the bookkeeping
 * and the `pw:snap` notification happen atomically; unchanged content bumps nothing.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { metaKey, snapKey, SNAP_CHANNEL } from './keys.js';
import { IsoTime } from '../model/index.js';
import { SnapshotData, type Snapshot, type SnapshotDataOf, type SnapshotKind } from './schemas.js';

const SAFE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** An item a refresh left out or held, and why (a 404 slug, a malformed market, a lost line); see Dropped in sources/http/parse.ts. */
const DroppedItem = z.object({
  id: z.string(),
  reason: z.string(),
  class: z.string().optional(),
  until: z.string().optional(),
  since: z.string().optional(),
});
export type DroppedItem = z.infer<typeof DroppedItem>;

// The meta keeps the first few (the gate carries lost and held items over from them); the count says how many there were.
const MAX_DROPPED_KEPT = 200;

const DroppedMeta = z.object({ count: z.number().int().nonnegative(), items: z.array(DroppedItem) });

// KEYS: snapshot, meta. ARGV: kind, key, data JSON, content hash, now ISO, channel, dropped JSON.
const WRITE_SCRIPT = `
local failures = tonumber(redis.call('HGET', KEYS[2], 'failures') or '0') or 0
redis.call('HSET', KEYS[2], 'dropped', ARGV[7])
if redis.call('HGET', KEYS[2], 'hash') == ARGV[4] and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[2], 'fetchedAt', ARGV[5], 'failures', 0)
  return {0, failures}
end
local v = redis.call('HINCRBY', KEYS[2], 'version', 1)
redis.call('SET', KEYS[1], '{"kind":"' .. ARGV[1] .. '","key":"' .. ARGV[2] .. '","version":' .. v ..
  ',"changedAt":"' .. ARGV[5] .. '","data":' .. ARGV[3] .. '}')
redis.call('HSET', KEYS[2], 'hash', ARGV[4], 'changedAt', ARGV[5], 'fetchedAt', ARGV[5], 'failures', 0)
redis.call('PUBLISH', ARGV[6], '{"kind":"' .. ARGV[1] .. '","key":"' .. ARGV[2] .. '","version":' .. v .. '}')
return {v, failures}
`;

export interface WriteResult {
  /** The new version, or 0 when the content was unchanged (only fetchedAt moved). */
  version: number;
  /** The failure streak this successful write ended (0 when the last refresh succeeded too). */
  endedFailures: number;
}

/**
 * Validates `data` against its kind's schema, then stores it.
 * @throws ZodError when the data does not match the schema (nothing is written).
 */
export async function writeSnapshot<K extends SnapshotKind>(
  redis: Redis,
  kind: K,
  key: string,
  data: SnapshotDataOf<K>,
  now: Date,
  /** Items this refresh left out (per-item isolation), kept in the meta for operators to see. */
  dropped: readonly DroppedItem[] = [],
): Promise<WriteResult> {
  if (!SAFE_KEY.test(key)) throw new RangeError(`unsafe snapshot key ${key}`);
  const valid = SnapshotData[kind].parse(data);
  const json = JSON.stringify(valid);
  const hash = createHash('sha256').update(json).digest('base64url');
  const [version, endedFailures] = (await redis.eval(
    WRITE_SCRIPT,
    2,
    snapKey(kind, key),
    metaKey(kind, key),
    kind,
    key,
    json,
    hash,
    now.toISOString(),
    SNAP_CHANNEL,
    JSON.stringify({ count: dropped.length, items: dropped.slice(0, MAX_DROPPED_KEPT) }),
  )) as [number, number];
  return { version, endedFailures };
}

const Envelope = z.object({
  kind: z.string(),
  key: z.string(),
  version: z.number().int().positive(),
  changedAt: IsoTime,
  data: z.unknown(),
});

/**
 * Reads and validates a snapshot. Returns undefined when none exists.
 * @throws ZodError when what Redis holds does not match the schema.
 */
export async function readSnapshot<K extends SnapshotKind>(
  redis: Redis,
  kind: K,
  key: string,
): Promise<Snapshot<K> | undefined> {
  const raw = await redis.get(snapKey(kind, key));
  if (raw === null) return undefined;
  return parseSnapshot(kind, raw);
}

/** Parses a stored snapshot string (exported for tests and tools). */
export function parseSnapshot<K extends SnapshotKind>(kind: K, raw: string): Snapshot<K> {
  const env = Envelope.parse(JSON.parse(raw));
  const data = SnapshotData[kind].parse(env.data) as SnapshotDataOf<K>;
  return { kind, key: env.key, version: env.version, changedAt: env.changedAt, data };
}

export interface SnapshotMeta {
  version: number;
  changedAt?: string;
  fetchedAt?: string;
  failures: number;
  lastError?: string;
  lastErrorAt?: string;
  /** The class of the last failure: quality, http, timeout, shape, quota, backoff, other. */
  lastReason?: string;
  /** What the last good refresh left out. */
  dropped?: { count: number; items: DroppedItem[] };
}

/** Bookkeeping for readiness and staleness checks. */
export async function readMeta(redis: Redis, kind: SnapshotKind, key: string): Promise<SnapshotMeta | undefined> {
  const h = await redis.hgetall(metaKey(kind, key));
  // Failures are recorded even before the first good snapshot, so any field counts.
  if (Object.keys(h).length === 0) return undefined;
  return {
    version: Number(h.version ?? 0),
    changedAt: h.changedAt,
    fetchedAt: h.fetchedAt,
    failures: Number(h.failures ?? 0),
    lastError: h.lastError,
    lastErrorAt: h.lastErrorAt,
    ...(h.lastReason ? { lastReason: h.lastReason } : {}),
    ...(h.dropped ? { dropped: parseDropped(h.dropped) } : {}),
  };
}

function parseDropped(raw: string): { count: number; items: DroppedItem[] } | undefined {
  try {
    const r = DroppedMeta.safeParse(JSON.parse(raw));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** Records a failed refresh; the last good snapshot stays as it is. Returns the failure streak. */
export async function recordFailure(
  redis: Redis,
  kind: SnapshotKind,
  key: string,
  message: string,
  now: Date,
  reason = 'other',
): Promise<number> {
  const k = metaKey(kind, key);
  const [[, failures]] = (await redis
    .multi()
    .hincrby(k, 'failures', 1)
    .hset(k, 'lastError', message.slice(0, 500), 'lastErrorAt', now.toISOString(), 'lastReason', reason)
    .exec()) as [[Error | null, number]];
  return failures;
}
