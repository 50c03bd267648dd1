/**
 * Snapshot freshness from the meta the worker writes, on a real Redis, with time as an argument:
 * stale after the configured missed refreshes, the marker payloads carry, change notices, and the
 * payload cache stamping bodies built while stale; a flushed Redis forgets nothing here, and a stamp
 * from a clock running ahead is aged from when it was seen.
 */
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { PayloadCache } from '../../src/serve/payload-cache.js';
import { SnapshotFreshness } from '../../src/store/snapshot-freshness.js';
import { writeSnapshot } from '../../src/store/snapshots.js';
import { oneEvent, oneMatchup, T1 } from '../support/fixtures.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const REFRESH = { events: 5, sportsbook: 5, metrics: 60, fx: 3600 };

describe('SnapshotFreshness', () => {
  let nowMs: number;
  let freshness: SnapshotFreshness;

  beforeEach(async () => {
    await redis.client.flushdb();
    nowMs = T1.getTime();
    freshness = new SnapshotFreshness(redis.client, log, {
      refreshSeconds: REFRESH,
      staleAfterIntervals: 3,
      now: () => nowMs,
    });
  });

  it('a snapshot never fetched is stale but carries no marker (there is no payload to mark)', async () => {
    await freshness.poll();
    const events = freshness.states().find((s) => s.kind === 'events')!;
    expect(events).toMatchObject({ stale: true, ageSeconds: undefined, staleAfterSeconds: 15 });
    expect(freshness.staleMarker('events')).toBeUndefined();
  });

  it('turns stale after the configured missed refreshes, per snapshot, and fresh again on the next fetch', async () => {
    const changes: string[] = [];
    freshness.onChange((id, stale) => changes.push(`${id.kind}:${id.key}:${stale}`));
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), T1);
    await writeSnapshot(redis.client, 'sportsbook', 'NBA', oneMatchup(-150), T1);
    await writeSnapshot(redis.client, 'sportsbook', 'NFL', oneMatchup(-150), new Date(T1.getTime() + 10_000));
    nowMs += 15_000; // exactly the limit: still fresh
    await freshness.poll();
    expect(freshness.staleMarker('events')).toBeUndefined();
    changes.length = 0;

    nowMs += 1_000;
    await freshness.poll();
    expect(freshness.staleMarker('events')).toEqual({ stale: true, data_fetched_at: T1.toISOString() });
    expect(freshness.staleMarker('sportsbook', 'NBA')).toEqual({ stale: true, data_fetched_at: T1.toISOString() });
    expect(freshness.staleMarker('sportsbook', 'NFL')).toBeUndefined();
    expect(freshness.states().find((s) => s.key === 'NBA')!.ageSeconds).toBe(16);
    expect(changes).toEqual(['events:all:true', 'sportsbook:NBA:true']);

    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), new Date(nowMs));
    await freshness.poll();
    expect(freshness.staleMarker('events')).toBeUndefined();
    expect(changes).toEqual(['events:all:true', 'sportsbook:NBA:true', 'events:all:false']);
  });

  it('the payload cache stamps bodies built from stale data, and only those', async () => {
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), T1);
    const payloads = new PayloadCache((kind, key) => freshness.staleMarker(kind, key));
    await freshness.poll();
    const fresh = JSON.parse(
      payloads.put('events', 'a', { widget_class: 'x' }, T1.toISOString()).body.toString(),
    ) as Record<string, unknown>;
    expect(fresh).toEqual({ widget_class: 'x' });
    nowMs += 60_000;
    await freshness.poll();
    const stale = JSON.parse(
      payloads.put('events', 'a', { widget_class: 'x' }, T1.toISOString()).body.toString(),
    ) as Record<string, unknown>;
    expect(stale).toEqual({ widget_class: 'x', stale: true, data_fetched_at: T1.toISOString() });
  });

  it('keeps the last fetch time when Redis forgets the snapshot, so the data still turns stale and is flagged', async () => {
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), T1);
    await freshness.poll();
    await redis.client.flushdb(); // FLUSHALL, an eviction, a restart without persistence
    nowMs += 16_000;
    await freshness.poll();
    expect(freshness.states().find((s) => s.kind === 'events')).toMatchObject({
      stale: true,
      ageSeconds: 16,
      fetchedAt: T1.toISOString(),
    });
    expect(freshness.staleMarker('events')).toEqual({ stale: true, data_fetched_at: T1.toISOString() });

    // The worker writes again: fresh, from the new stamp.
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), new Date(nowMs));
    await freshness.poll();
    expect(freshness.staleMarker('events')).toBeUndefined();
  });

  it('ages a stamp from the future from when it was seen, and counts it', async () => {
    const HOUR = 3_600_000;
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), new Date(T1.getTime() + HOUR)); // the worker's clock an hour ahead
    await freshness.poll();
    expect(freshness.states().find((s) => s.kind === 'events')).toMatchObject({
      stale: false,
      ageSeconds: 0,
      fetchedAt: T1.toISOString(),
    });
    expect(freshness.futureStamps().get('events')).toBe(1);

    // The worker dies: the data turns stale after the limit by our clock, not an hour later.
    nowMs += 15_000;
    await freshness.poll();
    expect(freshness.staleMarker('events')).toBeUndefined();
    nowMs += 1_000;
    await freshness.poll();
    expect(freshness.staleMarker('events')).toEqual({ stale: true, data_fetched_at: T1.toISOString() });
    expect(freshness.futureStamps().get('events')).toBe(1); // the same stamp read again is not counted again
  });

  it('a stamp from the past counts from its own time, however late it is read', async () => {
    await writeSnapshot(redis.client, 'events', 'all', oneEvent(0.6), new Date(T1.getTime() - 20_000));
    await freshness.poll();
    expect(freshness.states().find((s) => s.kind === 'events')).toMatchObject({ stale: true, ageSeconds: 20 });
    expect(freshness.futureStamps().size).toBe(0);
  });
});
