/**
 * Price history per event, written by the worker at each events refresh: for every outcome, each
 * operator's YES ask and bid and 24-hour volume, downsampled into two series of one point per
 * bucket (the last refresh in a bucket wins) and trimmed as they grow, so memory per event is
 * bounded (docs/contract.md, Event history):
 *
 * - `pw:hist:{slug}:5m`: 5-minute points for one day (the `1d` range);
 * - `pw:hist:{slug}:1h`: hourly points for 30 days (`7d`, `30d`).
 *
 * Each series is a sorted set scored by the bucket's start (Unix seconds) whose members are the
 * point as JSON; it expires with its retention, so a closed event's history goes by itself. The
 * aggregated probability is not stored: it depends on which operators a viewer may see, so it is
 * computed when read, from these quotes, as the event widget computes it.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { z } from 'zod';
import type { EventsData } from '../model/index.js';

export const HISTORY_SERIES = {
  '5m': { bucketSeconds: 300, retentionSeconds: 86_400 },
  '1h': { bucketSeconds: 3_600, retentionSeconds: 30 * 86_400 },
} as const;
export type SeriesName = keyof typeof HISTORY_SERIES;

export const historyKey = (slug: string, series: SeriesName) => `pw:hist:${slug}:${series}`;

/** One operator's quote at a point: [operator id, YES ask, YES bid or null, 24-hour volume USD or null (unknown)]. */
const StoredQuote = z.tuple([z.string(), z.number(), z.number().nullable(), z.number().nullable()]);
/** A point: its time (Unix seconds of the refresh), whether outcomes are exclusive, each outcome's quotes. */
export const StoredPoint = z.object({
  t: z.number().int(),
  x: z.boolean(),
  o: z.array(z.tuple([z.string(), z.array(StoredQuote)])),
});
export type StoredPoint = z.infer<typeof StoredPoint>;

/** The point of `event` at `nowSec`. */
export const pointOf = (event: EventsData['events'][number], nowSec: number): StoredPoint => ({
  t: nowSec,
  x: event.exclusive === true,
  o: event.outcomes.map((o) => [
    o.name,
    o.quotes.map((q) => [q.operatorId, q.yesPrice, q.yesBid ?? null, q.volume24hUsd] as const),
  ]),
});

/**
 * Records every event of a published snapshot at `now`, in one transaction: per series, the point
 * replaces any other of its bucket, and points older than the retention go.
 */
export async function recordHistory(redis: Redis, data: EventsData, now: Date): Promise<void> {
  const nowSec = Math.floor(now.getTime() / 1000);
  const tx = redis.multi();
  for (const event of data.events) {
    const point = pointOf(event, nowSec);
    for (const name of Object.keys(HISTORY_SERIES) as SeriesName[]) addPoint(tx, event.slug, name, point, nowSec);
  }
  await execAll(tx);
}

/**
 * Queues `point` into `slug`'s series `name`: it replaces any other point of its bucket, and points
 * older than the retention before `nowSec` go (the one downsampling and trimming rule for recorded
 * and backfilled points).
 */
export function addPoint(
  tx: ChainableCommander,
  slug: string,
  name: SeriesName,
  point: StoredPoint,
  nowSec: number,
): void {
  const { bucketSeconds, retentionSeconds } = HISTORY_SERIES[name];
  const key = historyKey(slug, name);
  const bucket = point.t - (point.t % bucketSeconds);
  const current = nowSec - (nowSec % bucketSeconds);
  tx.zremrangebyscore(key, bucket, bucket)
    .zadd(key, bucket, JSON.stringify(point))
    .zremrangebyscore(key, '-inf', `(${current - retentionSeconds}`)
    .expire(key, retentionSeconds + bucketSeconds);
}

/** Runs a transaction, throwing its first error. */
export async function execAll(tx: ChainableCommander): Promise<void> {
  const results = (await tx.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0]!;
}

/** The points of `slug`'s series from `fromSec` on, oldest first (unreadable members are skipped). */
export async function readHistory(
  redis: Redis,
  slug: string,
  series: SeriesName,
  fromSec: number,
): Promise<StoredPoint[]> {
  const members = await redis.zrangebyscore(historyKey(slug, series), fromSec, '+inf');
  return members.flatMap((m) => {
    try {
      const parsed = StoredPoint.safeParse(JSON.parse(m));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
