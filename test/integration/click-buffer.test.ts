/**
 * The click buffer against a real redis-server: clicks wait in memory while the connection is
 * down and are written when it is back, each once; the buffer is bounded and counts what it drops;
 * a visitor counts for a bounded number of operators a day; a stop that can neither write nor spill
 * says exactly how many it lost, leaves no file behind, and writes none of them later.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { register } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { connectRedisFailFast, whenReady } from '../../src/store/redis.js';
import { ClickBuffer } from '../../src/tracking/click-buffer.js';
import { clicksKey, clickOf, type Click } from '../../src/tracking/click-counter.js';
import { ClickRecord, clickKey, newClickId } from '../../src/tracking/click-ids.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const DAY = '2026-11-22';
let conn: Redis;

const click = (operatorId: string, visitor: string): Click => ({
  operatorId,
  widget: 'broad',
  country: 'GB',
  visitor,
  day: DAY,
});

beforeEach(async () => {
  await redis.client.flushdb();
  conn = connectRedisFailFast({ url: redis.url }, 'test-clicks', log, 300);
  await whenReady(conn);
});

afterEach(() => {
  conn.disconnect();
});

describe('ClickBuffer', () => {
  it('holds clicks while Redis is away and writes each once when it is back', async () => {
    const buffer = new ClickBuffer(conn, log, { max: 100, maxPerVisitorDay: 10, flushMs: 60_000 });
    buffer.start();
    conn.disconnect(true); // reconnects by itself
    expect(['v1', 'v2', 'v3'].map((v) => buffer.add(click('bet365', v)))).toEqual(['buffered', 'buffered', 'buffered']);
    expect(buffer.add(click('bet365', 'v1'))).toBe('duplicate');
    await buffer.flush(); // not connected: nothing lost, nothing written
    expect(buffer.size).toBe(3);
    await whenReady(conn); // the reconnect triggers a flush
    await expect.poll(() => buffer.size).toBe(0);
    expect(await redis.client.pfcount(clicksKey('bet365', DAY))).toBe(3);
    await buffer.stop();
  });

  it('is bounded: beyond its size clicks are dropped and counted', () => {
    const buffer = new ClickBuffer(conn, log, { max: 2, maxPerVisitorDay: 10 });
    expect(['a', 'b', 'c', 'd'].map((v) => buffer.add(click('bet365', v)))).toEqual([
      'buffered',
      'buffered',
      'dropped',
      'dropped',
    ]);
    expect(buffer.size).toBe(2);
    expect(buffer.dropped).toBe(2);
  });

  it('counts one visitor for at most CLICK_MAX_PER_VISITOR_DAY operators a day', async () => {
    const buffer = new ClickBuffer(conn, log, { max: 100, maxPerVisitorDay: 2 });
    expect(['bet365', 'betfair', 'betmgm'].map((op) => buffer.add(click(op, 'v1')))).toEqual([
      'buffered',
      'buffered',
      'capped',
    ]);
    expect(buffer.add({ ...click('betmgm', 'v1'), day: '2026-11-23' })).toBe('buffered');
    await buffer.flush();
    expect(await redis.client.pfcount(clicksKey('betmgm', DAY))).toBe(0);
    expect(await redis.client.pfcount(clicksKey('bet365', DAY))).toBe(1);
  });

  it('a stop that cannot spill (the data folder unusable) counts exactly what it lost, leaves no file, and writes none of it later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-nospill-'));
    // A spill folder whose path runs through a regular file cannot be made, even by root.
    writeFileSync(join(dir, 'data'), 'not a folder');
    const lines: Array<Record<string, unknown>> = [];
    const logged = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const counted = async () =>
      (await register.getSingleMetricAsString('predictwire_click_buffer_dropped_total')).match(/ (\d+)$/m)?.[1];
    const before = Number(await counted());
    const buffer = new ClickBuffer(conn, logged, {
      max: 100,
      maxPerVisitorDay: 10,
      flushMs: 60_000,
      spillDir: join(dir, 'data', 'spill'),
    });
    buffer.start();
    conn.disconnect(true); // reconnects by itself, after the stop
    for (const v of ['v1', 'v2', 'v3', 'v4']) buffer.add(click('bet365', v));
    await buffer.stop();
    expect(lines.filter((l) => l.msg === 'clicks not written to Redis at stop; dropped').map((l) => l.dropped)).toEqual(
      [4],
    );
    expect(Number(await counted()) - before).toBe(4);
    expect(readdirSync(dir)).toEqual(['data']);
    // Redis back: the clicks the line called lost stay lost, so the line was exact.
    await whenReady(conn);
    await buffer.flush();
    expect(await redis.client.pfcount(clicksKey('bet365', DAY))).toBe(0);
  });

  it('writes what each click id resolves to, expiring at the end of its attribution window; a repeat keeps the first id', async () => {
    // Redis expires keys by its own clock: the click is a minute old by the wall clock.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const attributionMs = 30 * 86_400_000;
    const buffer = new ClickBuffer(conn, log, {
      max: 100,
      maxPerVisitorDay: 10,
      attributionMs,
      now: () => at.getTime() + 5_000,
    });
    const target = {
      operatorId: 'kalshi',
      widget: 'event-specific',
      placement: 'fed-december-2026',
      country: 'US-NJ',
      advertiserId: 'acme',
      impressionId: 'i',
      expiresAt: 0,
    } as const;
    const first = clickOf(target, 'v1', at, newClickId(at.getTime()));
    expect(buffer.add(first)).toBe('buffered');
    const again = clickOf(target, 'v1', at, newClickId(at.getTime()));
    expect(buffer.add(again)).toBe('duplicate');
    expect(again.id).toBe(first.id);
    const other = clickOf(
      { ...target, advertiserId: undefined, country: undefined },
      'v2',
      at,
      newClickId(at.getTime()),
    );
    expect(buffer.add(other)).toBe('buffered');
    await buffer.flush();
    expect(ClickRecord.parse(JSON.parse((await redis.client.get(clickKey(first.id!)))!))).toEqual({
      o: 'kalshi',
      w: 'event-specific',
      p: 'fed-december-2026',
      j: 'US-NJ',
      a: 'acme',
      t: at.getTime(),
    });
    expect(ClickRecord.parse(JSON.parse((await redis.client.get(clickKey(other.id!)))!))).toEqual({
      o: 'kalshi',
      w: 'event-specific',
      p: 'fed-december-2026',
      t: at.getTime(),
    });
    expect(await redis.client.pexpiretime(clickKey(first.id!))).toBe(at.getTime() + attributionMs);
  });
});
