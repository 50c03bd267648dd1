/**
 * The source metrics an operator alerts on, from a real refresh against the local replay and real
 * Redis: upstream request latency and outcome per upstream (Kalshi and Polymarket apart), refresh
 * duration by outcome, and the odds provider's credits reported by the process that spent them.
 */
import { pino } from 'pino';
import { register } from 'prom-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import '../../src/metrics/sources.js';
import { createCatalogEventsSource } from '../../src/sources/combined/catalog-events.js';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { refreshEvents } from '../../workers/jobs/refresh-events.js';
import { refreshSportsbook } from '../../workers/jobs/refresh-sportsbook.js';
import { useRedis } from '../support/redis.js';
import { useReplayServer } from '../support/upstream-replay.js';

const redis = useRedis();
const replay = useReplayServer();
const log = pino({ level: 'silent' });
const FAST = { backoffBaseMs: 1, backoffMaxMs: 2, breakerBaseMs: 1 };
const clock = new Date('2026-03-01T12:00:00.000Z');
const deps = () => ({ redis: redis.client, log, now: () => clock.getTime(), fetchTimeoutMs: 5_000 });

beforeEach(async () => {
  await redis.client.flushdb();
});

/** The value of a series of `name` whose labels include `labels` (histograms: `suffix` picks _count or _sum). */
async function value(name: string, labels: Record<string, string>, suffix = ''): Promise<number> {
  const metric = register.getSingleMetric(name)!;
  const match = (await metric.get()).values.find(
    (v) =>
      (suffix ? (v as { metricName?: string }).metricName === `${name}${suffix}` : true) &&
      Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
  );
  return match?.value ?? 0;
}

describe('source metrics', () => {
  it('times upstream requests per upstream and outcome, Kalshi and Polymarket apart, and refreshes by outcome', async () => {
    const before = {
      kalshi5xx: await value(
        'predictwire_upstream_request_seconds',
        { upstream: 'kalshi', outcome: 'http_5xx' },
        '_count',
      ),
      kalshiOk: await value('predictwire_upstream_request_seconds', { upstream: 'kalshi', outcome: 'ok' }, '_count'),
      gammaOk: await value(
        'predictwire_upstream_request_seconds',
        { upstream: 'polymarket-gamma', outcome: 'ok' },
        '_count',
      ),
      written: await value(
        'predictwire_source_refresh_seconds',
        { kind: 'events', key: 'all', outcome: 'written' },
        '_count',
      ),
    };
    // The first Kalshi attempt fails with a 503, its retry succeeds.
    replay.fault({ prefix: '/kalshi', status: 503, times: 1, headers: { 'retry-after': '0' } });
    const source = createCatalogEventsSource({
      catalog: loadEventCatalog(),
      kalshi: new KalshiClient({ baseUrl: `${replay.base}/kalshi`, resilience: FAST }),
      polymarket: new PolymarketClient({
        gammaUrl: `${replay.base}/gamma`,
        clobUrl: `${replay.base}/clob`,
        dataUrl: `${replay.base}/data`,
        resilience: FAST,
      }),
      log,
    });
    expect(await refreshEvents(deps(), source)()).toMatchObject({ version: 1 });
    const kalshiCalls = replay.requests.filter((r) => r.startsWith('/kalshi')).length;
    const gammaCalls = replay.requests.filter((r) => r.startsWith('/gamma')).length;
    expect(
      await value('predictwire_upstream_request_seconds', { upstream: 'kalshi', outcome: 'http_5xx' }, '_count'),
    ).toBe(before.kalshi5xx + 1);
    expect(await value('predictwire_upstream_request_seconds', { upstream: 'kalshi', outcome: 'ok' }, '_count')).toBe(
      before.kalshiOk + kalshiCalls - 1,
    );
    expect(
      await value('predictwire_upstream_request_seconds', { upstream: 'polymarket-gamma', outcome: 'ok' }, '_count'),
    ).toBe(before.gammaOk + gammaCalls);
    expect(
      await value('predictwire_source_refresh_seconds', { kind: 'events', key: 'all', outcome: 'written' }, '_count'),
    ).toBe(before.written + 1);
  });

  it("reports the odds credits the provider gave this process, under the provider's label", async () => {
    const odds = new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k', resilience: FAST });
    await refreshSportsbook(
      { ...deps(), now: () => Date.now() },
      createOddsSportsbookSource({ odds, log }),
    )({ league: 'NBA' });
    expect(await value('predictwire_odds_api_credits_remaining', { upstream: 'odds-api' })).toBe(replay.oddsRemaining);
  });
});
