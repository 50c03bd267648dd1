import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ZodError } from 'zod';
import { metaKey, snapKey, SNAP_CHANNEL } from '../../src/store/keys.js';
import type { EventsData } from '../../src/model/index.js';
import { readMeta, readSnapshot, recordFailure, writeSnapshot } from '../../src/store/snapshots.js';
import { useRedis } from '../support/redis.js';
import { oneMatchup, oneEvent as fixtureEvent, T1, T2, T3 } from '../support/fixtures.js';

const redis = useRedis();
const events = (price: number) => fixtureEvent(price, 1234.5);

const NBA = oneMatchup(-150, 130);

/** Collects `pw:snap` messages on a second connection; `drain()` waits for all sent so far. */
class SnapListener {
  readonly messages: string[] = [];
  #sub!: Redis;
  #waiters: Array<{ token: string; resolve: () => void }> = [];

  async start(url: string) {
    this.#sub = new Redis(url);
    this.#sub.on('message', (channel: string, message: string) => {
      if (channel !== SNAP_CHANNEL) return;
      const waiter = this.#waiters.find((w) => w.token === message);
      if (waiter) {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        waiter.resolve();
        return;
      }
      this.messages.push(message);
    });
    await this.#sub.subscribe(SNAP_CHANNEL);
  }

  /** Publishes a sentinel and waits for it: every earlier message has then been delivered. */
  async drain(client: Redis) {
    const token = `sentinel-${Math.random()}`;
    const seen = new Promise<void>((resolve) => this.#waiters.push({ token, resolve }));
    await client.publish(SNAP_CHANNEL, token);
    await seen;
  }

  stop() {
    this.#sub.disconnect();
  }
}

describe('snapshot store', () => {
  const listener = new SnapListener();

  beforeAll(async () => {
    await listener.start(redis.url);
  });
  afterAll(() => listener.stop());
  beforeEach(async () => {
    await redis.client.flushdb();
    await listener.drain(redis.client);
    listener.messages.length = 0;
  });

  it('writes version 1, publishes a notice, and reads back what was written', async () => {
    const r = await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    expect(r).toEqual({ version: 1, endedFailures: 0 });
    await listener.drain(redis.client);
    expect(listener.messages.map((m) => JSON.parse(m))).toEqual([{ kind: 'events', key: 'all', version: 1 }]);
    const snap = await readSnapshot(redis.client, 'events', 'all');
    expect(snap).toEqual({ kind: 'events', key: 'all', version: 1, changedAt: T1.toISOString(), data: events(0.62) });
    // the stored key is the documented wire key
    expect(await redis.client.exists('pw:snap:events:all')).toBe(1);
  });

  it('round-trips a sportsbook snapshot', async () => {
    await writeSnapshot(redis.client, 'sportsbook', 'NBA', NBA, T1);
    const snap = await readSnapshot(redis.client, 'sportsbook', 'NBA');
    expect(snap).toEqual({ kind: 'sportsbook', key: 'NBA', version: 1, changedAt: T1.toISOString(), data: NBA });
  });

  it('returns undefined when there is no snapshot', async () => {
    expect(await readSnapshot(redis.client, 'events', 'all')).toBeUndefined();
    expect(await readMeta(redis.client, 'events', 'all')).toBeUndefined();
  });

  it('increments the version on every change and publishes each', async () => {
    expect((await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1)).version).toBe(1);
    expect((await writeSnapshot(redis.client, 'events', 'all', events(0.63), T2)).version).toBe(2);
    expect((await writeSnapshot(redis.client, 'events', 'all', events(0.62), T3)).version).toBe(3);
    await listener.drain(redis.client);
    expect(listener.messages.map((m) => JSON.parse(m))).toEqual([
      { kind: 'events', key: 'all', version: 1 },
      { kind: 'events', key: 'all', version: 2 },
      { kind: 'events', key: 'all', version: 3 },
    ]);
    const snap = await readSnapshot(redis.client, 'events', 'all');
    expect(snap?.version).toBe(3);
    expect(snap?.changedAt).toBe(T3.toISOString());
    expect(snap?.data).toEqual(events(0.62));
  });

  it('versions are per snapshot key', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await writeSnapshot(redis.client, 'events', 'all', events(0.63), T1);
    expect((await writeSnapshot(redis.client, 'sportsbook', 'NBA', NBA, T1)).version).toBe(1);
  });

  it('unchanged content returns version 0, publishes nothing, moves only fetchedAt', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    const before = await redis.client.get(snapKey('events', 'all'));
    await listener.drain(redis.client);
    listener.messages.length = 0;

    const r = await writeSnapshot(redis.client, 'events', 'all', events(0.62), T2);
    expect(r).toEqual({ version: 0, endedFailures: 0 });
    await listener.drain(redis.client);
    expect(listener.messages).toEqual([]);
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(before);
    const meta = await readMeta(redis.client, 'events', 'all');
    expect(meta).toMatchObject({ version: 1, changedAt: T1.toISOString(), fetchedAt: T2.toISOString(), failures: 0 });
  });

  it('refuses invalid data and writes nothing', async () => {
    const bad = events(1.5); // a YES price must be in (0, 1)
    await expect(writeSnapshot(redis.client, 'events', 'all', bad, T1)).rejects.toBeInstanceOf(ZodError);
    expect(await redis.client.exists(snapKey('events', 'all'), metaKey('events', 'all'))).toBe(0);
    await listener.drain(redis.client);
    expect(listener.messages).toEqual([]);
  });

  it('refuses invalid data over a good snapshot and keeps the good one', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    const before = await redis.client.get(snapKey('events', 'all'));
    const metaBefore = await redis.client.hgetall(metaKey('events', 'all'));
    const bad = { events: [{ ...events(0.5).events[0]!, slug: 'Not A Slug' }] };
    await expect(writeSnapshot(redis.client, 'events', 'all', bad, T2)).rejects.toBeInstanceOf(ZodError);
    // the wrong schema for the kind is refused too
    await expect(writeSnapshot(redis.client, 'events', 'all', NBA as unknown as EventsData, T2)).rejects.toBeInstanceOf(
      ZodError,
    );
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(before);
    expect(await redis.client.hgetall(metaKey('events', 'all'))).toEqual(metaBefore);
  });

  it('refuses a snapshot key that could break the key or the notice JSON', async () => {
    for (const key of ['', 'a:b', 'a"b', 'a b', 'x'.repeat(65)]) {
      await expect(writeSnapshot(redis.client, 'events', key, events(0.62), T1)).rejects.toBeInstanceOf(RangeError);
    }
    expect(await redis.client.dbsize()).toBe(0);
  });

  it('recordFailure counts a streak that the next successful write resets', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    const before = await redis.client.get(snapKey('events', 'all'));
    expect(await recordFailure(redis.client, 'events', 'all', 'upstream 502', T2)).toBe(1);
    expect(await recordFailure(redis.client, 'events', 'all', 'upstream timeout', T3)).toBe(2);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: 2,
      lastError: 'upstream timeout',
      lastErrorAt: T3.toISOString(),
      changedAt: T1.toISOString(),
    });
    // the good snapshot is untouched
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(before);

    // an unchanged successful fetch also ends the streak
    expect(await writeSnapshot(redis.client, 'events', 'all', events(0.62), T3)).toEqual({
      version: 0,
      endedFailures: 2,
    });
    expect((await readMeta(redis.client, 'events', 'all'))?.failures).toBe(0);

    await recordFailure(redis.client, 'events', 'all', 'again', T3);
    expect(await writeSnapshot(redis.client, 'events', 'all', events(0.64), T3)).toEqual({
      version: 2,
      endedFailures: 1,
    });
    expect((await readMeta(redis.client, 'events', 'all'))?.failures).toBe(0);
  });

  it('readSnapshot throws on a corrupted value', async () => {
    await writeSnapshot(redis.client, 'events', 'all', events(0.62), T1);
    await redis.client.set(snapKey('events', 'all'), '{"kind":"events","key":"all","vers');
    await expect(readSnapshot(redis.client, 'events', 'all')).rejects.toThrow();
  });

  it('readSnapshot throws on a well-formed envelope whose data fails the schema', async () => {
    const raw = JSON.stringify({
      kind: 'events',
      key: 'all',
      version: 7,
      changedAt: T1.toISOString(),
      data: events(1.5),
    });
    await redis.client.set(snapKey('events', 'all'), raw);
    await expect(readSnapshot(redis.client, 'events', 'all')).rejects.toBeInstanceOf(ZodError);
    const noVersion = JSON.stringify({ kind: 'events', key: 'all', changedAt: T1.toISOString(), data: events(0.5) });
    await redis.client.set(snapKey('events', 'all'), noVersion);
    await expect(readSnapshot(redis.client, 'events', 'all')).rejects.toBeInstanceOf(ZodError);
  });
});
