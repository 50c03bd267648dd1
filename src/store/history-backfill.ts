/**
 * Backfilling a new event's price history from the venues' own history (sources/combined/
 * venue-history.ts), so its chart does not start empty: the venue series are merged into points of
 * the stored form (price-history.ts) and written with the same downsampling and trimming as the
 * points the worker records. The venues give no 24-hour volume per point, so each quote carries the
 * operator's volume of the current snapshot (the aggregated probability weighs operators by it).
 */
import type { Redis } from 'ioredis';
import type { HistoryWindow, MarketEvent, VenueSeries } from '../model/index.js';
import { addPoint, execAll, HISTORY_SERIES, historyKey, type SeriesName, type StoredPoint } from './price-history.js';

/**
 * The stored points of `series` for `event`, the last of each `bucketSeconds` bucket, oldest first:
 * at each venue time, every operator's latest price at or before it.
 */
export function backfillPoints(
  event: MarketEvent,
  series: readonly VenueSeries[],
  bucketSeconds: number,
): StoredPoint[] {
  const volume = new Map(
    event.outcomes.flatMap((o) => o.quotes.map((q) => [`${o.name}|${q.operatorId}`, q.volume24hUsd] as const)),
  );
  // The last venue time of each bucket: the point that bucket keeps.
  const lastOfBucket = new Map<number, number>();
  for (const s of series)
    for (const p of s.points) {
      const b = p.t - (p.t % bucketSeconds);
      lastOfBucket.set(b, Math.max(lastOfBucket.get(b) ?? 0, p.t));
    }
  const times = [...lastOfBucket.values()].sort((a, b) => a - b);
  const cursors = series.map(() => -1);
  return times.flatMap((t) => {
    series.forEach((s, i) => {
      while (cursors[i]! + 1 < s.points.length && s.points[cursors[i]! + 1]!.t <= t) cursors[i]!++;
    });
    const o = event.outcomes.flatMap((outcome) => {
      const quotes = series.flatMap((s, i) => {
        const p = s.outcome === outcome.name ? s.points[cursors[i]!] : undefined;
        return p
          ? [
              [s.operatorId, p.ask, p.bid, volume.get(`${outcome.name}|${s.operatorId}`) ?? 0] as [
                string,
                number,
                number | null,
                number,
              ],
            ]
          : [];
      });
      return quotes.length > 0 ? [[outcome.name, quotes] as [string, typeof quotes]] : [];
    });
    return o.length > 0 ? [{ t, x: event.exclusive === true, o }] : [];
  });
}

/** The window each series is backfilled over, ending at `nowSec`. */
export function backfillWindow(name: SeriesName, nowSec: number): HistoryWindow {
  const { bucketSeconds, retentionSeconds } = HISTORY_SERIES[name];
  return { fromSec: nowSec - retentionSeconds, toSec: nowSec, stepMinutes: bucketSeconds === 300 ? 5 : 60 };
}

/** True when `slug` has no stored history yet (a new event, or one whose history expired). */
export async function hasNoHistory(redis: Redis, slug: string): Promise<boolean> {
  return (await redis.exists(...(Object.keys(HISTORY_SERIES) as SeriesName[]).map((n) => historyKey(slug, n)))) === 0;
}

/**
 * Fills `event`'s series from `fetch` (the venue series over a window), both series in one
 * transaction. Returns how many points each series got.
 */
export async function backfillHistory(
  redis: Redis,
  event: MarketEvent,
  fetch: (window: HistoryWindow) => Promise<VenueSeries[]>,
  now: Date,
): Promise<Record<SeriesName, number>> {
  const nowSec = Math.floor(now.getTime() / 1000);
  const tx = redis.multi();
  const counts = {} as Record<SeriesName, number>;
  for (const name of Object.keys(HISTORY_SERIES) as SeriesName[]) {
    const window = backfillWindow(name, nowSec);
    const points = backfillPoints(event, await fetch(window), HISTORY_SERIES[name].bucketSeconds).filter(
      (p) => p.t >= window.fromSec && p.t <= nowSec,
    );
    for (const p of points) addPoint(tx, event.slug, name, p, nowSec);
    counts[name] = points.length;
  }
  await execAll(tx);
  return counts;
}
