/**
 * A new event's history backfilled from the venues' own history (Polymarket's CLOB
 * `/prices-history`, Kalshi's candlesticks), replayed by a local server from the documented-shape
 * responses in test/fixtures/documented: the refresh job fills both series with one point per
 * bucket (the venue's last in it) within their retention, the event's later points are recorded as
 * usual, an event that has history is not backfilled again, and what a viewer reads keeps only the
 * operators of their jurisdiction. Expected counts and prices come from the fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { HISTORY_SERIES, readHistory, type SeriesName } from '../../src/store/price-history.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { buildEventHistory } from '../../src/widgets/event-history.js';
import { refreshEvents } from '../../workers/jobs/refresh-events.js';
import { useRedis } from '../support/redis.js';
import { recorded, startReplayServer, type ReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
let replay: ReplayServer;
const log = pino({ level: 'silent' });
const catalog = loadEventCatalog();
const fixtures = recorded();

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay?.stop();
});

/** The venue times each operator's fixture gives (Unix seconds). */
const venueTimes: Record<string, number[]> = {
  polymarket: fixtures.pricesHistory.history.map((p) => p.t),
  kalshi: fixtures.kalshiCandles.candlesticks.map((c) => c.end_period_ts),
};

/** Bucket starts a series should hold: the venues' times within its retention, and the refresh's own point. */
function expectedBuckets(operators: string[], name: SeriesName, nowSec: number): number[] {
  const { bucketSeconds, retentionSeconds } = HISTORY_SERIES[name];
  const times = [...operators.flatMap((o) => venueTimes[o]!).filter((t) => t >= nowSec - retentionSeconds), nowSec];
  return [...new Set(times.map((t) => t - (t % bucketSeconds)))].sort((a, b) => a - b);
}

describe('venue history backfill', () => {
  it('fills a new event from the venues, one point per bucket within retention, once', async () => {
    const clock = new Date('2026-03-01T12:00:00.000Z');
    const nowSec = clock.getTime() / 1000;
    const source = createCatalogEventsSource({
      catalog,
      kalshi: new KalshiClient({ baseUrl: `${replay.base}/kalshi` }),
      polymarket: new PolymarketClient({
        gammaUrl: `${replay.base}/gamma`,
        clobUrl: `${replay.base}/clob`,
        dataUrl: `${replay.base}/data`,
      }),
      log,
    });
    const run = refreshEvents({ redis: redis.client, log, now: () => clock.getTime(), fetchTimeoutMs: 5_000 }, source);
    await run();
    const events = (await readSnapshot(redis.client, 'events', 'all'))!.data.events;
    const operatorsOf = (e: (typeof events)[number]) => [
      ...new Set(e.outcomes.flatMap((o) => o.quotes.map((q) => q.operatorId))),
    ];
    expect(new Set(events.flatMap(operatorsOf))).toEqual(new Set(['kalshi', 'polymarket']));

    for (const event of events) {
      for (const name of Object.keys(HISTORY_SERIES) as SeriesName[]) {
        const points = await readHistory(redis.client, event.slug, name, 0);
        const { bucketSeconds } = HISTORY_SERIES[name];
        const expected = expectedBuckets(operatorsOf(event), name, nowSec);
        // Without the backfill a new event would hold only the refresh's own point.
        expect(expected.length).toBeGreaterThan(20);
        expect(
          points.map((p) => p.t - (p.t % bucketSeconds)),
          `${event.slug} ${name}`,
        ).toEqual(expected);
        // The last point is the refresh's own, recorded after the backfill.
        expect(points.at(-1)!.t).toBe(nowSec);
      }
    }

    // The venues' prices, on our outcome's side: the last hourly candle before now for Kalshi, the last CLOB point for Polymarket.
    const lastCandle = fixtures.kalshiCandles.candlesticks.at(-1)! as {
      end_period_ts: number;
      yes_ask: { close_dollars: string };
      yes_bid: { close_dollars: string };
    };
    const lastPoint = fixtures.pricesHistory.history.at(-1)!;
    for (const event of events) {
      const hourly = await readHistory(redis.client, event.slug, '1h', 0);
      const backfilled = hourly.at(-2)!;
      expect(backfilled.t).toBe(Math.max(...operatorsOf(event).map((o) => venueTimes[o]!.at(-1)!)));
      for (const [outcome, quotes] of backfilled.o) {
        const refs = catalog.find((e) => e.slug === event.slug)!.outcomes.find((o) => o.name === outcome)!.refs;
        for (const [operator, ask, bid] of quotes) {
          const ref = refs.find((r) => r.operator === operator)!;
          if (operator === 'polymarket') expect([ask, bid]).toEqual([lastPoint.p, null]);
          else if (!ref.invert)
            expect([ask, bid]).toEqual([
              Number(lastCandle.yes_ask.close_dollars),
              Number(lastCandle.yes_bid.close_dollars),
            ]);
          else expect(ask).toBeCloseTo(1 - Number(lastCandle.yes_bid.close_dollars), 6);
        }
      }
    }

    // A later refresh records its point and asks the venues nothing more.
    const asked = () =>
      replay.requests.filter((r) => r.startsWith('/clob/prices-history') || r.includes('/candlesticks')).length;
    const before = asked();
    expect(before).toBeGreaterThan(0);
    clock.setTime(clock.getTime() + 300_000);
    await run();
    expect(asked()).toBe(before);
    const later = await readHistory(redis.client, events[0]!.slug, '5m', 0);
    expect(later.at(-1)!.t).toBe(nowSec + 300);
  });

  it('shows a viewer only the operators of their jurisdiction', async () => {
    const events = (await readSnapshot(redis.client, 'events', 'all'))!.data.events;
    const views = await Promise.all(
      events.map(async (event) => {
        const points = await readHistory(redis.client, event.slug, '1h', 0);
        return (jurisdiction: string) => {
          const shown = shownOperators(jurisdiction);
          return buildEventHistory(points, {
            slug: event.slug,
            range: '30d',
            category: event.category,
            jurisdiction,
            isShown: (id) => shown.operatorOn(id, event.category) !== undefined,
          });
        };
      }),
    );
    const operatorsIn = (j: string) =>
      [
        ...new Set(views.flatMap((view) => view(j).outcomes.flatMap((o) => o.operators.map((op) => op.operator_id)))),
      ].sort();
    const allowed = (j: string) =>
      ['kalshi', 'polymarket'].filter((id) =>
        events.some((e) => shownOperators(j).operatorOn(id, e.category) !== undefined),
      );
    for (const j of ['US-NJ', 'US-NY', 'ZZ']) expect(operatorsIn(j), j).toEqual(allowed(j));
    expect(operatorsIn('US-NJ')).toEqual(['kalshi']);
    for (const view of views)
      expect(view('ZZ').outcomes.every((o) => o.probability_pct.every((p) => p === null))).toBe(true);
  });
});
