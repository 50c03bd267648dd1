/**
 * The refresh job over the real Kalshi + Polymarket source and a local replay server: the last good
 * snapshot survives 5xx, a hung upstream and a body failing validation; one warning per failure
 * streak; recovery on the next run with no restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { snapKey } from '../../src/store/keys.js';
import { readMeta, readSnapshot } from '../../src/store/snapshots.js';
import { refreshEvents } from '../../workers/jobs/refresh-events.js';
import type { RefreshDeps } from '../../workers/refresh.js';
import { useRedis } from '../support/redis.js';
import { startReplayServer, type ReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
let replay: ReplayServer;
const lines: Array<{ level: number; msg: string }> = [];
const log = pino(
  { level: 'info' },
  { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) },
);

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay?.stop();
});

describe('refresh-events with the real source', () => {
  it('keeps the last good snapshot through failures, warns once per streak, and recovers', async () => {
    let clock = new Date('2026-03-01T12:00:00.000Z');
    const deps: RefreshDeps = { redis: redis.client, log, now: () => clock.getTime(), fetchTimeoutMs: 1_000 };
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      // A 1 ms circuit pause: this test is about the snapshot, not the breaker (upstream-backoff.test.ts).
      kalshi: new KalshiClient({ baseUrl: `${replay.base}/kalshi`, resilience: { breakerBaseMs: 1 } }),
      polymarket: new PolymarketClient({
        gammaUrl: `${replay.base}/gamma`,
        clobUrl: `${replay.base}/clob`,
        dataUrl: `${replay.base}/data`,
      }),
      log,
    });
    const run = refreshEvents(deps, source);

    expect(await run()).toEqual({ version: 1, endedFailures: 0 });
    const good = await redis.client.get(snapKey('events', 'all'));
    const snap = await readSnapshot(redis.client, 'events', 'all');
    expect(
      snap!.data.events.find((e) => e.slug === 'us-recognizes-reza-pahlavi-2026')!.outcomes[0]!.quotes[0]!.yesPrice,
    ).toBe(0.27);

    const warnings = () => lines.filter((l) => l.level === 40 && l.msg.startsWith('refresh failed'));
    // 1. Kalshi answers 503 on every retry
    clock = new Date('2026-03-01T12:00:05.000Z');
    replay.fault({ prefix: '/kalshi', status: 503, times: 3, headers: { 'retry-after': '0' } });
    await expect(run()).rejects.toMatchObject({ status: 503 });
    // 2. Gamma hangs past the refresh deadline
    clock = new Date('2026-03-01T12:00:10.000Z');
    replay.fault({ prefix: '/gamma', status: 0, times: 1 });
    await expect(run()).rejects.toThrow();
    // 3. Kalshi answers 200 with a body that is not its documented envelope
    clock = new Date('2026-03-01T12:00:15.000Z');
    replay.fault({ prefix: '/kalshi/markets', status: 200, times: 1 });
    await expect(run()).rejects.toThrow(/envelope/);

    expect(await redis.client.get(snapKey('events', 'all'))).toBe(good);
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: 3,
      fetchedAt: '2026-03-01T12:00:00.000Z',
    });
    expect(warnings()).toHaveLength(1);

    // 4. The upstream is back: same content, so no new version, but the streak resets and fetchedAt moves.
    clock = new Date('2026-03-01T12:00:20.000Z');
    expect(await run()).toEqual({ version: 0, endedFailures: 3 });
    expect(await readMeta(redis.client, 'events', 'all')).toMatchObject({
      version: 1,
      failures: 0,
      fetchedAt: '2026-03-01T12:00:20.000Z',
    });
    expect(lines.filter((l) => l.msg === 'refresh recovered')).toHaveLength(1);

    // 5. A new price upstream becomes version 2.
    // (one book: the NO bid moves with the YES ask it mirrors)
    Object.assign(replay.data.kalshiMarkets.find((m) => m.ticker === 'KXRECOGPERSONIRAN-26')!, {
      yes_ask_dollars: '0.2900',
      no_bid_dollars: '0.7100',
    });
    clock = new Date('2026-03-01T12:00:25.000Z');
    expect(await run()).toEqual({ version: 2, endedFailures: 0 });
    const next = await readSnapshot(redis.client, 'events', 'all');
    expect(
      next!.data.events.find((e) => e.slug === 'us-recognizes-reza-pahlavi-2026')!.outcomes[0]!.quotes[0]!.yesPrice,
    ).toBe(0.29);
    expect(next!.changedAt).toBe('2026-03-01T12:00:25.000Z');
    expect(source.last()!.data).toEqual(next!.data);

    // 6. A fetch the quality gate refuses (a venue gone, most events lost) is never what derived metrics read.
    replay.data.kalshiMarkets = [];
    clock = new Date('2026-03-01T12:00:30.000Z');
    await expect(run()).rejects.toThrow(/quality gate: .*venue kalshi vanished/);
    expect(source.last()!.data).toEqual(next!.data);
  });
});
