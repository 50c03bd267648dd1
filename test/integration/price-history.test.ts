/**
 * Event price history on a real redis-server, filled from simulator refreshes at moving times: one
 * point per 5-minute and per hourly bucket (the last refresh wins), trimmed to each series'
 * retention; each range reads back the number of points its buckets hold, with only the operators
 * a jurisdiction may show.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { buildEvents } from '../../src/sources/simulator/events.js';
import { HISTORY_SERIES, historyKey, readHistory, recordHistory } from '../../src/store/price-history.js';
import { buildEventHistory, HISTORY_RANGES, type HistoryRange } from '../../src/widgets/event-history.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const SEED = 7;
const START = Date.parse('2026-11-20T10:02:00Z');
const MINUTE = 60_000;

beforeEach(async () => {
  await redis.client.flushdb();
});

/** Records a simulator refresh every `stepMs` from `fromMs` for `count` refreshes; returns their times. */
async function replay(fromMs: number, stepMs: number, count: number): Promise<number[]> {
  const times = Array.from({ length: count }, (_, i) => fromMs + i * stepMs);
  for (const t of times) await recordHistory(redis.client, buildEvents(SEED, new Date(t)), new Date(t));
  return times;
}

/** The distinct buckets of `series` among `times` no older than `fromSec`. */
const buckets = (times: number[], series: keyof typeof HISTORY_SERIES, fromSec: number) => {
  const size = HISTORY_SERIES[series].bucketSeconds;
  return new Set(
    times
      .map((t) => Math.floor(t / 1000))
      .map((s) => s - (s % size))
      .filter((b) => b >= fromSec),
  ).size;
};

describe('event price history', () => {
  it('keeps one point per bucket, the last refresh of each, and each range reads its buckets back', async () => {
    // Three hours of refreshes every minute.
    const times = await replay(START, MINUTE, 180);
    const now = times.at(-1)!;
    const slug = buildEvents(SEED, new Date(now)).events[0]!.slug;
    const nowSec = Math.floor(now / 1000);
    for (const range of Object.keys(HISTORY_RANGES) as HistoryRange[]) {
      const { series, seconds } = HISTORY_RANGES[range];
      const points = await readHistory(redis.client, slug, series, nowSec - seconds);
      expect(points.length, range).toBe(buckets(times, series, nowSec - seconds));
      // The last refresh within each bucket is its point.
      const size = HISTORY_SERIES[series].bucketSeconds;
      for (const p of points) {
        const inBucket = times.map((t) => Math.floor(t / 1000)).filter((s) => s - (s % size) === p.t - (p.t % size));
        expect(p.t).toBe(Math.max(...inBucket));
      }
    }
    // Three hours fit both retentions: every bucket touched is there.
    expect((await readHistory(redis.client, slug, '5m', 0)).length).toBe(buckets(times, '5m', 0));
    expect((await readHistory(redis.client, slug, '1h', 0)).length).toBe(buckets(times, '1h', 0));
  });

  it('trims each series to its retention as time goes on', async () => {
    const first = await replay(START, 10 * MINUTE, 6);
    // Two days later: the 5-minute points of the first day are gone, the hourly ones kept.
    const later = START + 2 * 86_400_000;
    const times = await replay(later, MINUTE, 3);
    const slug = buildEvents(SEED, new Date(later)).events[0]!.slug;
    expect((await readHistory(redis.client, slug, '5m', 0)).map((p) => p.t * 1000)).toEqual([times.at(-1)!]);
    expect((await readHistory(redis.client, slug, '1h', 0)).length).toBe(buckets([...first, ...times], '1h', 0));
    const ttl = await redis.client.ttl(historyKey(slug, '5m'));
    expect(ttl).toBeGreaterThan(HISTORY_SERIES['5m'].retentionSeconds);
  });

  it('shows only the operators a jurisdiction may show, one value per point for every series', async () => {
    const times = await replay(START, 5 * MINUTE, 12);
    const events = buildEvents(SEED, new Date(times.at(-1)!)).events;
    const nowSec = Math.floor(times.at(-1)! / 1000);
    for (const jurisdiction of ['US-NJ', 'GB']) {
      const shown = shownOperators(jurisdiction);
      for (const event of events.slice(0, 3)) {
        const points = await readHistory(redis.client, event.slug, '5m', nowSec - 86_400);
        const payload = buildEventHistory(points, {
          slug: event.slug,
          range: '1d',
          category: event.category,
          jurisdiction,
          isShown: (id) => shown.operatorOn(id, event.category) !== undefined,
        });
        expect(payload.timestamps.length).toBe(12);
        const quoted = new Set(event.outcomes.flatMap((o) => o.quotes.map((q) => q.operatorId)));
        for (const o of payload.outcomes) {
          expect(o.probability_pct.length).toBe(12);
          for (const op of o.operators) {
            expect(shown.operatorOn(op.operator_id, event.category), `${jurisdiction} ${op.operator_id}`).toBeDefined();
            expect(quoted.has(op.operator_id)).toBe(true);
            expect(op.prices.length).toBe(12);
          }
        }
      }
    }
  });
});
