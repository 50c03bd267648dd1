import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { snapKey, SNAP_CHANNEL } from '../../src/store/keys.js';
import type { Snapshot } from '../../src/store/schemas.js';
import { SnapshotCache } from '../../src/store/snapshot-cache.js';
import { writeSnapshot } from '../../src/store/snapshots.js';
import { useRedis } from '../support/redis.js';
import { oneMatchup, oneEvent as fixtureEvent, T1, T2, T3 } from '../support/fixtures.js';

const redis = useRedis();
const events = (price: number) => fixtureEvent(price);
const log = pino({ level: 'silent' });

const league = (homeMoneyline: number) => oneMatchup(homeMoneyline);

/** Polls `check` every 20 ms until it returns true or 2 s pass. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SnapshotCache', () => {
  let subscriber: Redis;
  let reader: Redis;
  let cache: SnapshotCache;

  beforeEach(async () => {
    await redis.client.flushdb();
    subscriber = new Redis(redis.url);
    reader = new Redis(redis.url);
    cache = new SnapshotCache(reader, subscriber, log);
  });
  afterEach(() => {
    subscriber.disconnect();
    reader.disconnect();
  });

  it('loads the snapshots that exist at start', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await writeSnapshot(redis.client, 'events', 'all', events(0.63), T2);
    await writeSnapshot(redis.client, 'sportsbook', 'NBA', league(-150), T1);
    await cache.start();
    expect(cache.get('events', 'all')).toEqual({
      kind: 'events',
      key: 'all',
      version: 2,
      changedAt: T2.toISOString(),
      data: events(0.63),
    });
    expect(cache.get('sportsbook', 'NBA')?.data).toEqual(league(-150));
    expect(cache.get('sportsbook', 'EPL')).toBeUndefined();
    expect(cache.get('metrics', 'all')).toBeUndefined();
  });

  it('picks up a new version after a write and tells onChange listeners', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await cache.start();
    const seen: Snapshot[] = [];
    cache.onChange((s) => seen.push(s));

    await writeSnapshot(redis.client, 'events', 'all', events(0.7), T2);
    await eventually(() => cache.get('events', 'all')?.version === 2, 'version 2');
    expect(cache.get('events', 'all')?.data).toEqual(events(0.7));
    expect(seen.map((s) => [s.kind, s.key, s.version])).toEqual([['events', 'all', 2]]);

    // a snapshot that did not exist at start arrives by notice too
    await writeSnapshot(redis.client, 'sportsbook', 'NFL', { ...league(-120), league: 'NFL' }, T2);
    await eventually(() => cache.get('sportsbook', 'NFL') !== undefined, 'NFL');
    expect(seen.map((s) => [s.kind, s.key, s.version])).toEqual([
      ['events', 'all', 2],
      ['sportsbook', 'NFL', 1],
    ]);
  });

  it('an unsubscribed listener hears nothing more', async () => {
    await cache.start();
    const seen: number[] = [];
    const off = cache.onChange((s) => seen.push(s.version));
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await eventually(() => cache.get('events', 'all')?.version === 1, 'version 1');
    off();
    await writeSnapshot(redis.client, 'events', 'all', events(0.63), T2);
    await eventually(() => cache.get('events', 'all')?.version === 2, 'version 2');
    expect(seen).toEqual([1]);
  });

  it('ignores malformed pw:snap messages and keeps working', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await cache.start();
    for (const junk of [
      'not json',
      '{}',
      '{"kind":"weather","key":"all","version":1}',
      '{"kind":"events","key":"all","version":0}',
      '{"kind":"events","key":"","version":3}',
      'null',
      '[1,2,3]',
    ]) {
      await redis.client.publish(SNAP_CHANNEL, junk);
    }
    await writeSnapshot(redis.client, 'events', 'all', events(0.64), T2);
    await eventually(() => cache.get('events', 'all')?.version === 2, 'version 2 after junk');
    expect(cache.get('events', 'all')?.data).toEqual(events(0.64));
  });

  it('keeps the previous good snapshot when Redis holds an invalid one', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await writeSnapshot(redis.client, 'sportsbook', 'NBA', league(-150), T1);
    await cache.start();
    const good = cache.get('events', 'all');
    expect(good?.version).toBe(1);
    const changes: string[] = [];
    cache.onChange((s) => changes.push(`${s.kind}:${s.key}:${s.version}`));

    // A bad value straight into Redis (price 1.5 is outside (0, 1)), then its notice.
    const bad = JSON.stringify({
      kind: 'events',
      key: 'all',
      version: 9,
      changedAt: T2.toISOString(),
      data: events(1.5),
    });
    await redis.client.set(snapKey('events', 'all'), bad);
    await redis.client.publish(SNAP_CHANNEL, JSON.stringify({ kind: 'events', key: 'all', version: 9 }));
    // and one that is not even JSON
    await redis.client.publish(SNAP_CHANNEL, JSON.stringify({ kind: 'events', key: 'all', version: 10 }));
    await redis.client.set(snapKey('events', 'all'), '{"kind":"events",');
    await redis.client.publish(SNAP_CHANNEL, JSON.stringify({ kind: 'events', key: 'all', version: 11 }));

    // A later good change to another key: once it is applied, the notices above were handled
    // (one command connection answers in order).
    await writeSnapshot(redis.client, 'sportsbook', 'NBA', league(-160), T3);
    await eventually(() => cache.get('sportsbook', 'NBA')?.version === 2, 'NBA version 2');

    expect(cache.get('events', 'all')).toEqual(good);
    expect(changes).toEqual(['sportsbook:NBA:2']);
  });

  it('reloadAll reloads what changed while notices were missed', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await cache.start();
    await subscriber.unsubscribe(SNAP_CHANNEL);
    await writeSnapshot(redis.client, 'events', 'all', events(0.66), T2);
    expect(cache.get('events', 'all')?.version).toBe(1);
    await cache.reloadAll();
    expect(cache.get('events', 'all')?.version).toBe(2);
    expect(cache.get('events', 'all')?.data).toEqual(events(0.66));
  });
});
