/**
 * Report counters on a real redis-server: an attributed click counts in the advertiser's day and
 * hour only when it is a new visitor for the operator that day, and an attributed impression only
 * when it is new for the visitor, operator and widget class that day, so writing a batch again (a
 * retry after a lost reply) counts nothing twice; keys expire after their retention; the report reads
 * them back grouped.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readReport } from '../../src/tracking/advertiser-report.js';
import { writeClicks, type Click } from '../../src/tracking/click-counter.js';
import { impressionsKey, recordImpressions, type Impression } from '../../src/tracking/impression-writes.js';
import { PERIOD_SECONDS, REPORT_RETENTION, reportKey } from '../../src/tracking/report-counters.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const HOUR = '2026-11-22T14';
const DAY = HOUR.slice(0, 10);

const click = (operatorId: string, visitor: string, widget: Click['widget'] = 'broad'): Click => ({
  operatorId,
  widget,
  country: 'GB',
  visitor,
  day: DAY,
  hour: HOUR,
  advertiserId: 'acme',
});

beforeEach(async () => {
  await redis.client.flushdb();
});

describe('attributed clicks', () => {
  it('count once per visitor, operator and day, retried or not, with the ranking counts unchanged', async () => {
    const batch = [
      click('kalshi', 'v1'),
      click('kalshi', 'v2'),
      click('kalshi', 'v1', 'event-specific'),
      click('bet365', 'v1'),
      { ...click('bet365', 'v3'), advertiserId: undefined },
    ];
    const changed = await writeClicks(redis.client, batch);
    expect(changed).toEqual([true, true, false, true, true]);
    await writeClicks(redis.client, batch); // the same batch again: nothing new
    const day = await redis.client.hgetall(reportKey('acme', 'day', DAY));
    expect(day).toEqual({ 'c|kalshi|broad|GB': '2', 'c|bet365|broad|GB': '1' });
    expect(await redis.client.hgetall(reportKey('acme', 'hour', HOUR))).toEqual(day);
    expect(await redis.client.pfcount(`pw:uclicks:kalshi:${DAY}`)).toBe(2);
    expect(await redis.client.pfcount(`pw:uclicks:bet365:${DAY}`)).toBe(2);
    const dayTtl = await redis.client.ttl(reportKey('acme', 'day', DAY));
    const hourTtl = await redis.client.ttl(reportKey('acme', 'hour', HOUR));
    expect(dayTtl).toBeGreaterThan(REPORT_RETENTION.day);
    expect(dayTtl).toBeLessThanOrEqual(REPORT_RETENTION.day + PERIOD_SECONDS.day);
    expect(hourTtl).toBeGreaterThan(REPORT_RETENTION.hour);
    expect(hourTtl).toBeLessThanOrEqual(REPORT_RETENTION.hour + PERIOD_SECONDS.hour);
  });

  it('attributed impressions count once per visitor, operator, widget class and day, retried or not', async () => {
    const seen = (visitor: string, operatorIds: string[], widget: Impression['widget'] = 'broad'): Impression => ({
      visitor,
      widget,
      operatorIds,
      day: DAY,
      hour: HOUR,
      advertiserId: 'acme',
      country: 'GB',
    });
    const batch = [
      seen('v1', ['kalshi', 'bet365']),
      seen('v1', ['kalshi']),
      seen('v2', ['kalshi']),
      seen('v1', ['kalshi'], 'event-specific'),
      { ...seen('v3', ['bet365']), advertiserId: undefined },
    ];
    await recordImpressions(redis.client, batch);
    await recordImpressions(redis.client, batch); // the same batch again: nothing new
    const day = await redis.client.hgetall(reportKey('acme', 'day', DAY));
    expect(day).toEqual({ 'i|kalshi|broad|GB': '2', 'i|bet365|broad|GB': '1', 'i|kalshi|event-specific|GB': '1' });
    expect(await redis.client.hgetall(reportKey('acme', 'hour', HOUR))).toEqual(day);
    // The ranking counts the unattributed one too.
    expect(await redis.client.hgetall(impressionsKey('kalshi', DAY))).toEqual({
      total: '3',
      'widget:broad': '2',
      'widget:event-specific': '1',
    });
    expect(await redis.client.hgetall(impressionsKey('bet365', DAY))).toEqual({ total: '2', 'widget:broad': '2' });
    expect(await redis.client.ttl(reportKey('acme', 'hour', HOUR))).toBeGreaterThan(REPORT_RETENTION.hour);
  });

  it('are read back per period and group', async () => {
    await writeClicks(redis.client, [
      click('kalshi', 'v1'),
      click('kalshi', 'v2', 'event-specific'),
      click('bet365', 'v1'),
    ]);
    await redis.client.hincrby(reportKey('acme', 'hour', HOUR), 'i|kalshi|broad|GB', 8);
    const fromMs = Date.parse(`${HOUR}:00:00Z`) - 3_600_000;
    const report = await readReport(redis.client, {
      advertiserId: 'acme',
      granularity: 'hour',
      fromMs,
      toMs: fromMs + 3_600_000,
      groupBy: ['operator'],
      currency: 'USD',
    });
    // No postbacks: no conversions, at a rate of 0 per click.
    const none = {
      registrations: 0,
      first_deposits: 0,
      deposits: 0,
      conversion_rate: 0,
      deposit_amount: 0,
      earnings: 0,
      earnings_per_click: 0,
    };
    expect(report.rows).toEqual([
      { period_start: `${HOUR}:00:00Z`, operator_id: 'bet365', impressions: 0, clicks: 1, ctr: null, ...none },
      { period_start: `${HOUR}:00:00Z`, operator_id: 'kalshi', impressions: 8, clicks: 2, ctr: 0.25, ...none },
    ]);
    expect(report.totals).toEqual({ impressions: 8, clicks: 3, ctr: 0.375, ...none });
    expect(report.fx_as_of).toBeNull();
    expect(report.from).toBe(new Date(fromMs).toISOString().replace('.000Z', 'Z'));
    expect(report.to).toBe(new Date(fromMs + 2 * 3_600_000).toISOString().replace('.000Z', 'Z'));
  });
});
