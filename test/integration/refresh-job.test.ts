import { beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ZodError } from 'zod';
import { snapKey } from '../../src/store/keys.js';
import { readMeta, readSnapshot } from '../../src/store/snapshots.js';
import { refreshSnapshot, type RefreshDeps } from '../../workers/refresh.js';
import { useRedis } from '../support/redis.js';
import { oneEvent as fixtureEvent } from '../support/fixtures.js';

const redis = useRedis();
const events = (price: number) => fixtureEvent(price);
const log = pino({ level: 'silent' });

describe('refreshSnapshot', () => {
  let clock: Date;
  let deps: RefreshDeps;

  beforeEach(async () => {
    await redis.client.flushdb();
    clock = new Date('2026-11-22T14:00:00.000Z');
    deps = { redis: redis.client, log, now: () => clock.getTime() };
  });

  const at = (iso: string) => {
    clock = new Date(iso);
  };

  it('writes what the fetch returns, passing it the current time', async () => {
    const asked: string[] = [];
    const r = await refreshSnapshot(deps, 'events', 'all', async ({ now }) => {
      asked.push(now.toISOString());
      return events(0.62);
    });
    expect(r).toEqual({ version: 1, endedFailures: 0 });
    expect(asked).toEqual(['2026-11-22T14:00:00.000Z']);
    expect((await readSnapshot(redis.client, 'events', 'all'))?.data).toEqual(events(0.62));
  });

  it('keeps the last good snapshot through a failing fetch and invalid data, then recovers', async () => {
    await refreshSnapshot(deps, 'events', 'all', async () => events(0.62));
    const good = await redis.client.get(snapKey('events', 'all'));

    // 1. the source throws: rethrown as is, snapshot untouched, streak 1
    at('2026-11-22T14:00:05.000Z');
    const boom = new Error('upstream 502 Bad Gateway');
    await expect(
      refreshSnapshot(deps, 'events', 'all', async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(good);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: 1,
      lastError: 'upstream 502 Bad Gateway',
      lastErrorAt: '2026-11-22T14:00:05.000Z',
      changedAt: '2026-11-22T14:00:00.000Z',
    });

    // 2. the source answers with an envelope failing the schema (a bad item alone is only dropped): same treatment, streak 2
    at('2026-11-22T14:00:10.000Z');
    await expect(
      refreshSnapshot(deps, 'events', 'all', async () => ({ events: 'none' }) as never),
    ).rejects.toBeInstanceOf(ZodError);
    expect(await redis.client.get(snapKey('events', 'all'))).toBe(good);
    const meta = await readMeta(redis.client, 'events', 'all');
    expect(meta).toMatchObject({ version: 1, failures: 2, lastErrorAt: '2026-11-22T14:00:10.000Z' });
    expect(meta?.lastError).toBeTruthy();
    expect((await readSnapshot(redis.client, 'events', 'all'))?.data).toEqual(events(0.62));

    // 3. recovery with new data: written as version 2, streak reset
    at('2026-11-22T14:00:15.000Z');
    expect(await refreshSnapshot(deps, 'events', 'all', async () => events(0.65))).toEqual({
      version: 2,
      endedFailures: 2,
    });
    const snap = await readSnapshot(redis.client, 'events', 'all');
    expect(snap).toMatchObject({ version: 2, changedAt: '2026-11-22T14:00:15.000Z', data: events(0.65) });
    expect((await readMeta(redis.client, 'events', 'all'))?.failures).toBe(0);
  });

  it('recovery with unchanged data also resets the streak without a new version', async () => {
    await refreshSnapshot(deps, 'events', 'all', async () => events(0.62));
    at('2026-11-22T14:00:05.000Z');
    await expect(refreshSnapshot(deps, 'events', 'all', () => Promise.reject(new Error('timeout')))).rejects.toThrow(
      'timeout',
    );
    at('2026-11-22T14:00:10.000Z');
    expect(await refreshSnapshot(deps, 'events', 'all', async () => events(0.62))).toEqual({
      version: 0,
      endedFailures: 1,
    });
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: 0,
      fetchedAt: '2026-11-22T14:00:10.000Z',
      changedAt: '2026-11-22T14:00:00.000Z',
    });
  });

  it('fails when Redis cannot give the last snapshot (the gate needs it), but refreshes past one it cannot parse', async () => {
    // WRONGTYPE on GET: Redis answers with an error, as when it is unwell. Comparing against nothing
    // would let any loss through, so the refresh fails and the key is left as it was.
    await redis.client.hset(snapKey('events', 'all'), 'not', 'a snapshot');
    await expect(refreshSnapshot(deps, 'events', 'all', async () => events(0.62))).rejects.toThrow(/WRONGTYPE/);
    expect(await redis.client.type(snapKey('events', 'all'))).toBe('hash');
    // A stored snapshot of another shape (a deploy changed the schema): refreshed, not compared.
    await redis.client.del(snapKey('events', 'all'));
    await redis.client.set(
      snapKey('events', 'all'),
      JSON.stringify({ kind: 'events', key: 'all', version: 3, data: { old: true } }),
    );
    await refreshSnapshot(deps, 'events', 'all', async () => events(0.62));
    expect((await readSnapshot(redis.client, 'events', 'all'))?.data).toEqual(events(0.62));
  });

  it('a failure before any snapshot exists writes no snapshot', async () => {
    await expect(refreshSnapshot(deps, 'events', 'all', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await redis.client.exists(snapKey('events', 'all'))).toBe(0);
    expect(await readSnapshot(redis.client, 'events', 'all')).toBeUndefined();
    // then the first success starts at version 1 with a clean streak
    expect(await refreshSnapshot(deps, 'events', 'all', async () => events(0.5))).toEqual({
      version: 1,
      endedFailures: 1,
    });
    expect((await readMeta(redis.client, 'events', 'all'))?.failures).toBe(0);
  });

  it('rethrows a non-Error rejection unchanged', async () => {
    await expect(refreshSnapshot(deps, 'events', 'all', () => Promise.reject('plain string'))).rejects.toBe(
      'plain string',
    );
  });

  it('runs at most one refresh per snapshot at a time; the next one after it runs again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const slow = async () => {
      calls++;
      await gate;
      return events(0.62);
    };
    const first = refreshSnapshot(deps, 'events', 'all', slow);
    // Let the first take the lock before the second asks for it.
    while (calls === 0) await new Promise((r) => setImmediate(r));
    expect(await refreshSnapshot(deps, 'events', 'all', slow)).toEqual({ version: 0, endedFailures: 0, skipped: true });
    // Another snapshot is not held up.
    expect(
      await refreshSnapshot(deps, 'fx', 'daily', async () => ({ asOfDate: '2026-11-20', rates: { USD: 1 } })),
    ).toMatchObject({ version: 1 });
    release();
    expect(await first).toEqual({ version: 1, endedFailures: 0 });
    expect(calls).toBe(1);
    expect(await refreshSnapshot(deps, 'events', 'all', async () => events(0.63))).toEqual({
      version: 2,
      endedFailures: 0,
    });
  });
});
