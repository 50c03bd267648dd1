/**
 * Impressions a stopping API could not write (Redis away) are spilled to the data folder and
 * counted once by the next counter to start there, against a real redis-server.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedisFailFast, whenReady } from '../../src/store/redis.js';
import { utcDay } from '../../src/tracking/click-counter.js';
import { ImpressionCounter } from '../../src/tracking/impression-counter.js';
import { impressionsKey } from '../../src/tracking/impression-writes.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const log = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'pw-spill-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ImpressionCounter at stop', () => {
  it('spills what Redis did not take; the next counter writes it once and deletes the file', async () => {
    const now = new Date();
    const away = connectRedisFailFast({ url: redis.url }, 'test-away', log, 300);
    await whenReady(away);
    away.disconnect(); // Redis unreachable for this counter
    const stopping = new ImpressionCounter(away, log, 60_000, dir);
    stopping.start();
    for (const visitor of ['v1', 'v2', 'v3'])
      stopping.record({ widget: 'broad', operatorIds: ['bet365', 'kalshi'] }, visitor, BROWSER, now);
    stopping.record({ widget: 'event-specific', operatorIds: ['bet365'] }, 'v1', BROWSER, now);
    await stopping.stop();
    expect(readdirSync(dir).filter((f) => f.startsWith('impressions-'))).toHaveLength(1);

    for (let i = 0; i < 2; i++) {
      const conn = connectRedisFailFast({ url: redis.url }, 'test-next', log, 300);
      await whenReady(conn);
      const next = new ImpressionCounter(conn, log, 60_000, dir);
      next.start();
      await next.stop();
      conn.disconnect();
    }
    const day = utcDay(now);
    expect(await redis.client.hgetall(impressionsKey('bet365', day))).toEqual({
      total: '4',
      'widget:broad': '3',
      'widget:event-specific': '1',
    });
    expect(await redis.client.hget(impressionsKey('kalshi', day), 'total')).toBe('3');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('replays a spill of a full queue: every impression counted once by the next counter', async () => {
    const now = new Date();
    const many = mkdtempSync(join(tmpdir(), 'pw-spill-many-'));
    // More reports than a call's arguments may hold: a replay that spreads them into one call fails.
    const VISITORS = 150_000;
    const away = connectRedisFailFast({ url: redis.url }, 'test-away', log, 300);
    await whenReady(away);
    away.disconnect();
    const stopping = new ImpressionCounter(away, log, 60_000, many);
    stopping.start();
    for (let v = 0; v < VISITORS; v++)
      stopping.record({ widget: 'broad', operatorIds: ['unibet'] }, `m${v}`, BROWSER, now);
    expect(stopping.size).toBe(VISITORS);
    await stopping.stop();

    // A command timeout far above what writing 150,000 reports takes on a busy machine: a write that
    // times out is spilled again (not lost), which this test would read as a failed replay.
    const conn = connectRedisFailFast({ url: redis.url }, 'test-next', log, 10_000);
    await whenReady(conn);
    const next = new ImpressionCounter(conn, log, 60_000, many);
    next.start();
    expect(next.size).toBe(VISITORS);
    await next.stop();
    conn.disconnect();
    expect(await redis.client.hget(impressionsKey('unibet', utcDay(now)), 'total')).toBe(String(VISITORS));
    expect(readdirSync(many)).toEqual([]);
    rmSync(many, { recursive: true, force: true });
  });
});
