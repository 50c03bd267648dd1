/**
 * Click and impression counters, OI history and the ranking signals against a real redis-server:
 * recorded clicks move an operator up the broad ranking by the documented formula.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import type { MetricsData } from '../../src/model/index.js';
import { clickUrl } from '../../src/tracking/click-links.js';
import { clickOf, clicksByKey, clicksKey, recordClick, writeClicks } from '../../src/tracking/click-counter.js';
import { readCtrCounts } from '../../src/tracking/ctr-counts.js';
import { ImpressionCounter } from '../../src/tracking/impression-counter.js';
import { impressionSeenKey, impressionsKey, SEEN_RETENTION_SECONDS } from '../../src/tracking/impression-writes.js';
import { oiHistoryKey, readOiHistory } from '../../src/tracking/oi-history.js';
import { RankingInputs } from '../../src/tracking/ranking-inputs.js';
import { buildBroadWidget } from '../../src/widgets/broad-widget.js';
import { refreshMetrics } from '../../workers/jobs/refresh-metrics.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const NOW = new Date('2026-11-22T14:00:00.000Z');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY = '2026-11-22';
const H = 3_600_000;
const EXPIRES = Math.floor(NOW.getTime() / 1000) + 3600;
// The documented defaults (RANK_CTR_PRIOR_IMPRESSIONS 5000; weights 0.5 / 0.2 / 0.3).
const { ctrPriorImpressions: M, weights: WEIGHTS } = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }).ranking;

const target = (operatorId: string, impressionId = 'imp-1') => ({
  operatorId,
  widget: 'broad' as const,
  placement: 'rank-1',
  country: 'GB',
  impressionId,
  expiresAt: EXPIRES,
});

const metricsWith = (oi: Record<string, number>, volume: Record<string, number> = {}): MetricsData => ({
  operators: Object.keys({ ...oi, ...volume }).map((operatorId) => ({
    operatorId,
    volume24hUsd: volume[operatorId] ?? 1_000_000,
    openInterestUsd: oi[operatorId] ?? 0,
    liquidityUsd: 100_000,
    activeEvents: 10,
    volumeByCategoryUsd: { sports: volume[operatorId] ?? 1_000_000 },
  })),
});

beforeEach(async () => {
  await redis.client.flushdb();
});

/** `n` distinct visitors clicked `operatorId` today, in the broad widget (as writeClicks stores them). */
async function clickers(operatorId: string, n: number): Promise<void> {
  const visitors = Array.from({ length: n }, (_, i) => `visitor-${i}`);
  await redis.client.pfadd(clicksKey(operatorId, DAY), ...visitors);
  await redis.client.pfadd(clicksByKey(operatorId, DAY, 'widget:broad'), ...visitors);
}

describe('click counter', () => {
  it('counts a click once per visitor, operator and day, whatever the impression, by widget and country', async () => {
    expect(await recordClick(redis.client, target('bet365'), 'visitor-a', NOW)).toBe(true);
    expect(await recordClick(redis.client, target('bet365'), 'visitor-a', NOW)).toBe(false);
    expect(await recordClick(redis.client, target('bet365'), 'visitor-b', NOW)).toBe(true);
    // another impression id (caller-visible) is no new click
    expect(await recordClick(redis.client, target('bet365', 'imp-2'), 'visitor-a', NOW)).toBe(false);
    expect(await recordClick(redis.client, target('betfair'), 'visitor-a', NOW)).toBe(true);
    // the next UTC day counts again
    expect(await recordClick(redis.client, target('bet365'), 'visitor-a', new Date(NOW.getTime() + 86_400_000))).toBe(
      true,
    );
    expect(await redis.client.pfcount(clicksKey('bet365', DAY))).toBe(2);
    expect(await redis.client.pfcount(clicksByKey('bet365', DAY, 'widget:broad'))).toBe(2);
    expect(await redis.client.pfcount(clicksByKey('bet365', DAY, 'country:GB'))).toBe(2);
    expect(await redis.client.pfcount(clicksKey('betfair', DAY))).toBe(1);
    // one bounded key per operator and day (and per breakdown), not one per click
    expect((await redis.client.keys('pw:uclicks:*')).sort()).toEqual(
      [
        ...['bet365', 'betfair'].flatMap((id) => [
          clicksKey(id, DAY),
          clicksByKey(id, DAY, 'widget:broad'),
          clicksByKey(id, DAY, 'country:GB'),
        ]),
        ...[
          clicksKey('bet365', '2026-11-23'),
          clicksByKey('bet365', '2026-11-23', 'widget:broad'),
          clicksByKey('bet365', '2026-11-23', 'country:GB'),
        ],
      ].sort(),
    );
    expect(await redis.client.ttl(clicksKey('bet365', DAY))).toBeGreaterThan(80 * 86_400);
  });

  it('a batch written twice (a retry after a failed write) counts once', async () => {
    const clicks = ['v1', 'v2', 'v3'].map((v) => clickOf(target('bet365'), v, NOW));
    await writeClicks(redis.client, clicks);
    await writeClicks(redis.client, clicks);
    expect(await redis.client.pfcount(clicksKey('bet365', DAY))).toBe(3);
  });
});

describe('impression counter', () => {
  it('counts a visitor once per operator, widget class and day across API processes, bots left out; writes on flush and on stop', async () => {
    // Two counters: two API processes the same visitor's reports reach.
    const [a, b] = [new ImpressionCounter(redis.client, log, 60_000), new ImpressionCounter(redis.client, log, 60_000)];
    const broad = { widget: 'broad', operatorIds: ['bet365', 'betfair'] } as const;
    a.record(broad, 'v1', BROWSER, NOW);
    b.record(broad, 'v1', BROWSER, NOW); // the same visitor through the other process
    a.record({ widget: 'broad', operatorIds: ['bet365'] }, 'v1', BROWSER, NOW); // and again through the first
    b.record({ widget: 'event-specific', operatorIds: ['bet365'] }, 'v1', BROWSER, NOW); // another widget class counts
    b.record(broad, 'v2', BROWSER, NOW);
    a.record(broad, 'v3', GOOGLEBOT, NOW);
    b.record(broad, 'v4', undefined, NOW);
    expect(a.size + b.size).toBe(4); // the repeat on the first process never reached Redis
    expect(await redis.client.exists(impressionsKey('bet365', DAY))).toBe(0);
    await Promise.all([a.flush(), b.flush()]);
    expect(await redis.client.hgetall(impressionsKey('bet365', DAY))).toEqual({
      total: '3',
      'widget:broad': '2',
      'widget:event-specific': '1',
    });
    expect(await redis.client.ttl(impressionSeenKey('v1', DAY))).toBeLessThanOrEqual(SEEN_RETENTION_SECONDS);
    // A new day counts again, also when Redis has forgotten the counting script (a restart).
    await redis.client.script('FLUSH');
    const tomorrow = new Date(NOW.getTime() + 86_400_000);
    a.record(broad, 'v1', BROWSER, tomorrow);
    await a.stop();
    expect(await redis.client.hget(impressionsKey('betfair', DAY), 'total')).toBe('2');
    expect(await redis.client.hget(impressionsKey('betfair', tomorrow.toISOString().slice(0, 10)), 'total')).toBe('1');
  });

  it('reads totals over the rolling window only', async () => {
    await redis.client.hset(impressionsKey('bet365', DAY), 'total', 100);
    await redis.client.hset(impressionsKey('bet365', '2026-11-16'), 'total', 50); // 6 days back: inside 7
    await redis.client.hset(impressionsKey('bet365', '2026-11-15'), 'total', 999); // 7 days back: outside
    // Clicks from the widgets that count impressions (broad, event), a visitor in both counting once;
    // live-market clicks have no impressions beside them and count nothing.
    await redis.client.pfadd(clicksByKey('bet365', '2026-11-20', 'widget:broad'), 'v1', 'v2', 'v3');
    await redis.client.pfadd(clicksByKey('bet365', '2026-11-20', 'widget:event-specific'), 'v3', 'v4');
    await redis.client.pfadd(clicksByKey('bet365', '2026-11-20', 'widget:live-market'), 'v5', 'v6', 'v7');
    await redis.client.pfadd(clicksKey('bet365', '2026-11-20'), 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7');
    const counts = await readCtrCounts(redis.client, ['bet365', 'betfair'], NOW, 7);
    expect(counts.get('bet365')).toEqual({ clicks: 4, impressions: 150 });
    expect(counts.get('betfair')).toEqual({ clicks: 0, impressions: 0 });
  });
});

describe('OI history from the metrics job', () => {
  it('appends each run, trims by age, and gives the acceleration to the API', async () => {
    let clock = new Date(NOW.getTime() - 3 * H);
    const values = [100, 100, 110, 132]; // at -3h, -2h, -1h, now: growth +10% then +20%
    let run = 0;
    const source = {
      name: 'fixture',
      fetchMetrics: async () => metricsWith({ kalshi: values[run]!, polymarket: 1000 }),
    };
    const job = refreshMetrics({ redis: redis.client, log, now: () => clock.getTime() }, source, 3 * H);
    for (run = 0; run < values.length; run++) {
      clock = new Date(NOW.getTime() - (3 - run) * H);
      await job();
    }
    // the -3h sample is older than the 3h retention measured from the last append? exactly 3h: kept
    const history = await readOiHistory(redis.client, ['kalshi'], 0);
    expect(history.get('kalshi')!.map((p) => p.oi)).toEqual([100, 100, 110, 132]);
    expect(await redis.client.zcard(oiHistoryKey('polymarket'))).toBe(4);

    const inputs = new RankingInputs(redis.client, log, {
      operatorIds: ['kalshi', 'polymarket'],
      oiPeriodMs: H,
      ctrWindowDays: 7,
      refreshMs: 60_000,
      now: () => NOW.getTime(),
    });
    await inputs.reload();
    expect(inputs.current().byOperator.get('kalshi')!.oiAcceleration).toBeCloseTo(0.1, 12);
    expect(inputs.current().byOperator.get('polymarket')!.oiAcceleration).toBe(0);
    expect(inputs.current().version).toBe(1);
    await inputs.reload();
    expect(inputs.current().version).toBe(1); // unchanged signals keep their version

    // one more run an hour later drops the samples older than three hours
    clock = new Date(NOW.getTime() + H + 1);
    run = 3;
    await job();
    expect((await readOiHistory(redis.client, ['kalshi'], 0)).get('kalshi')!.map((p) => p.oi)).toEqual([110, 132, 132]);
  });
});

describe('CTR moves the broad ranking', () => {
  it('recorded clicks lift an operator by the documented formula', async () => {
    const ids = ['bet365', 'betfair', 'betmgm'];
    const metrics = metricsWith({}, { betfair: 80_000_000, bet365: 60_000_000, betmgm: 40_000_000 });
    const inputs = new RankingInputs(redis.client, log, {
      operatorIds: ids,
      oiPeriodMs: H,
      ctrWindowDays: 7,
      refreshMs: 60_000,
      now: () => NOW.getTime(),
    });
    const impressions = new ImpressionCounter(redis.client, log, 60_000);
    const rank = () => {
      const s = inputs.current();
      return buildBroadWidget(
        {
          metrics,
          changedAt: NOW.toISOString(),
          locale: 'en',
          currency: 'USD',
          rate: 1,
          limit: 10,
          signals: s.byOperator,
          ctrPrior: { mean: s.ctrMean, weight: M },
          weights: WEIGHTS,
        },
        {
          ...shownOperators('GB'),
          clickUrl: (t) => clickUrl('https://pw.example', 'integration-secret-0123456789abcdefgh', t),
          impressionUrl: () => null,
          linkExpiresAt: EXPIRES,
          impressionId: 'imp-x',
        },
      ).operatorIds;
    };

    // 1000 impressions each, no clicks: volume decides (betfair 80M, bet365 60M, betmgm 40M)
    for (let v = 0; v < 1000; v++)
      impressions.record({ widget: 'broad', operatorIds: ids }, `visitor-${v}`, BROWSER, NOW);
    await impressions.flush();
    await inputs.reload();
    expect(rank()).toEqual(['betfair', 'bet365', 'betmgm']);

    // betmgm: 100 visitors click; the others 2 each. mean = 104 / 3000; with m = 5000:
    // smoothed: betmgm (100 + m * mean) / 6000 = 0.0456, others (2 + m * mean) / 6000 = 0.0292
    // n(ctr): betmgm 1, others 0; scores betfair 0.5, betmgm 0 + 0.3 = 0.3, bet365 0.25
    for (let v = 0; v < 100; v++)
      await recordClick(redis.client, target('betmgm', `imp-${v % 7}`), `visitor-${v}`, NOW);
    for (const id of ['bet365', 'betfair'])
      for (let v = 0; v < 2; v++) await recordClick(redis.client, target(id), `visitor-${v}`, NOW);
    // repeated clicks of one visitor change nothing
    for (let r = 0; r < 50; r++) await recordClick(redis.client, target('bet365'), 'visitor-0', NOW);
    await inputs.reload();
    const s = inputs.current();
    expect(s.ctrMean).toBeCloseTo(104 / 3000, 12);
    // no OI history: unknown (null), which the ranking scores as neutral
    expect(s.byOperator.get('betmgm')).toEqual({ oiAcceleration: null, clicks: 100, impressions: 1000 });
    expect(rank()).toEqual(['betfair', 'betmgm', 'bet365']);
  });

  it('ten impressions, all clicked, cannot jump to the top', async () => {
    expect(M).toBe(5000);
    const ids = ['bet365', 'betfair', 'betmgm'];
    const inputs = new RankingInputs(redis.client, log, {
      operatorIds: ids,
      oiPeriodMs: H,
      ctrWindowDays: 7,
      refreshMs: 60_000,
      now: () => NOW.getTime(),
    });
    await redis.client.hset(impressionsKey('betfair', DAY), 'total', 20_000);
    await clickers('betfair', 400); // 2%
    await redis.client.hset(impressionsKey('bet365', DAY), 'total', 20_000);
    await clickers('bet365', 600); // 3%
    await redis.client.hset(impressionsKey('betmgm', DAY), 'total', 10);
    await clickers('betmgm', 10); // 100% on ten impressions
    await inputs.reload();
    const s = inputs.current();
    const ctr = (id: string) => {
      const c = s.byOperator.get(id)!;
      return (c.clicks + M * s.ctrMean) / (c.impressions + M);
    };
    // About: mean = 1010 / 40010; betmgm (10 + 5000 * mean) / 5010 = 0.0272 < bet365 (600 + 5000 * mean) / 25000 = 0.0290
    // (the click counts are HyperLogLog estimates: read back what Redis counts)
    const counted = await Promise.all(ids.map((id) => redis.client.pfcount(clicksKey(id, DAY))));
    const mean = counted.reduce((a, b) => a + b, 0) / 40_010;
    expect(ctr('betmgm')).toBeCloseTo((counted[2]! + 5000 * mean) / 5010, 12);
    expect(ctr('betmgm')).toBeLessThan(ctr('bet365'));
  });
});
