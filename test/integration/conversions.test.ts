/**
 * Conversions on a real redis-server: a postback's click id resolves to the click written with its
 * count, and the conversion lands in that click's advertiser's report counters under the period it
 * arrived in; an event id counts once however often it is written; an unknown click, or another
 * operator's, counts nothing. Postbacks queued while Redis is away are written once it is back,
 * and those still queued at stop are spilled and written by the next queue to start there. The
 * report reads them back in the asked currency at the FX snapshot's rates.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { roundTo } from '../../src/domain/aggregate.js';
import { convert } from '../../src/domain/fx.js';
import type { FxData } from '../../src/model/index.js';
import { connectRedisFailFast, whenReady } from '../../src/store/redis.js';
import { readReport } from '../../src/tracking/advertiser-report.js';
import { newClickId } from '../../src/tracking/click-ids.js';
import { clickOf, writeClicks } from '../../src/tracking/click-counter.js';
import { conversionKey, writeConversions, type Conversion } from '../../src/tracking/conversions.js';
import { postbackBuffer } from '../../src/tracking/postback-buffer.js';
import { periodOf, reportKey } from '../../src/tracking/report-counters.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
// Click records expire by Redis's own clock: the clicks are minutes old by the wall clock.
const CLICKED = new Date(Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000);
const ARRIVED = CLICKED.getTime() + 5 * 60_000;
const FX: FxData = { asOfDate: '2026-11-20', rates: { EUR: 0.92, GBP: 0.79, JPY: 151.2 } };

const target = (advertiserId?: string) =>
  ({
    operatorId: 'kalshi',
    widget: 'event-specific',
    placement: 'fed-december-2026',
    country: 'US-NJ',
    advertiserId,
    impressionId: 'i',
    expiresAt: 0,
  }) as const;

/** A counted click on kalshi, with its id written as the buffer writes it. */
async function clicked(visitor: string, advertiserId: string | null = 'acme'): Promise<string> {
  const click = clickOf(target(advertiserId ?? undefined), visitor, CLICKED, newClickId(CLICKED.getTime()));
  await writeClicks(redis.client, [click]);
  return click.id!;
}

const conversion = (
  clickId: string,
  event: Conversion['event'],
  eventId: string,
  extra: Partial<Conversion> = {},
): Conversion => ({
  operatorId: 'kalshi',
  clickId,
  event,
  eventId,
  atMs: ARRIVED,
  ...extra,
});

beforeEach(async () => {
  await redis.client.flushdb();
});

describe('writeConversions', () => {
  it("counts each event id once in the click advertiser's report, and nothing for unknown or foreign clicks", async () => {
    const a = await clicked('v1');
    const b = await clicked('v2');
    const unattributed = await clicked('v3', null);
    const batch = [
      conversion(a, 'registration', 'reg-1'),
      conversion(a, 'first_deposit', 'dep-1', { currency: 'EUR', amountMinor: 5_000, commissionMinor: 2_500 }),
      conversion(b, 'registration', 'reg-2'),
      conversion(b, 'deposit', 'dep-2', { currency: 'GBP', amountMinor: 1_999 }),
      conversion(unattributed, 'registration', 'reg-3'),
      conversion(newClickId(CLICKED.getTime()), 'registration', 'reg-4'),
      conversion(a, 'registration', 'reg-5', { operatorId: 'polymarket' }),
    ];
    expect(await writeConversions(redis.client, batch)).toEqual([
      'counted',
      'counted',
      'counted',
      'counted',
      'counted',
      'unknown_click',
      'unknown_click',
    ]);
    // The same batch again (a retry, a replayed postback): counted before, nothing changes.
    expect(await writeConversions(redis.client, batch)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'unknown_click',
      'unknown_click',
    ]);
    const hash = await redis.client.hgetall(reportKey('acme', 'day', periodOf(new Date(ARRIVED), 'day')));
    // (The clicks' own counts are there too when they were made the same day.)
    const day = Object.fromEntries(Object.entries(hash).filter(([field]) => !field.startsWith('c|')));
    expect(day).toEqual({
      'r|kalshi|event-specific|US': '2',
      'f|kalshi|event-specific|US': '1',
      'd|kalshi|event-specific|US': '2',
      'a|kalshi|event-specific|US|EUR': '5000',
      'e|kalshi|event-specific|US|EUR': '2500',
      'a|kalshi|event-specific|US|GBP': '1999',
    });
    const hour = await redis.client.hgetall(reportKey('acme', 'hour', periodOf(new Date(ARRIVED), 'hour')));
    expect(Object.fromEntries(Object.entries(hour).filter(([field]) => !field.startsWith('c|')))).toEqual(day);
    // The event's record keeps the whole attribution, placement and jurisdiction included.
    expect(JSON.parse((await redis.client.get(conversionKey('kalshi', 'dep-1')))!)).toEqual({
      click_id: a,
      event: 'first_deposit',
      currency: 'EUR',
      amount_minor: 5_000,
      commission_minor: 2_500,
      advertiser_id: 'acme',
      widget: 'event-specific',
      placement: 'fed-december-2026',
      jurisdiction: 'US-NJ',
      clicked_at: CLICKED.toISOString(),
      received_at: new Date(ARRIVED).toISOString(),
    });
    expect(await redis.client.exists(conversionKey('kalshi', 'reg-3'))).toBe(1);
    expect(await redis.client.exists(conversionKey('kalshi', 'reg-4'))).toBe(0);
  });

  it("are read back in the asked currency at the FX snapshot's rates, with earnings per click", async () => {
    const a = await clicked('v1');
    await writeConversions(redis.client, [
      conversion(a, 'first_deposit', 'dep-1', { currency: 'EUR', amountMinor: 5_000, commissionMinor: 2_500 }),
      conversion(a, 'deposit', 'dep-2', { currency: 'USD', amountMinor: 1_000, commissionMinor: 100 }),
    ]);
    const fromMs = Date.parse(`${periodOf(new Date(ARRIVED), 'day')}T00:00:00Z`);
    const request = {
      advertiserId: 'acme',
      granularity: 'day',
      fromMs,
      toMs: fromMs,
      groupBy: ['operator'],
      currency: 'GBP',
    } as const;
    const report = await readReport(redis.client, request, FX);
    const inGbp = (amount: number, from: 'EUR' | 'USD') => convert(amount, from, 'GBP', FX)!;
    // Clicks are counted in the day the click was made; conversions in the day they arrived.
    const clicks = periodOf(CLICKED, 'day') === periodOf(new Date(ARRIVED), 'day') ? 1 : 0;
    expect(report.totals).toMatchObject({
      clicks,
      first_deposits: 1,
      deposits: 2,
      registrations: 0,
      deposit_amount: roundTo(inGbp(50, 'EUR') + inGbp(10, 'USD'), 2),
      earnings: roundTo(inGbp(25, 'EUR') + inGbp(1, 'USD'), 2),
      earnings_per_click: clicks ? roundTo(inGbp(25, 'EUR') + inGbp(1, 'USD'), 4) : null,
    });
    expect(report.currency).toBe('GBP');
    expect(report.fx_as_of).toBe(FX.asOfDate);
    // Without a rate for a currency held, the report says so rather than guessing.
    await expect(readReport(redis.client, { ...request, currency: 'CHF' }, FX)).rejects.toMatchObject({
      status: 503,
      code: 'data_unavailable',
    });
  });
});

describe('the postback queue', () => {
  let conn: Redis;

  beforeEach(async () => {
    conn = connectRedisFailFast({ url: redis.url }, 'test-postbacks', log, 300);
    await whenReady(conn);
  });

  afterEach(() => {
    conn.disconnect();
  });

  it('holds postbacks while Redis is away and counts each once when it is back', async () => {
    const a = await clicked('v1');
    const queue = postbackBuffer(conn, log, undefined, 60_000);
    queue.start();
    conn.disconnect(true); // reconnects by itself
    expect(queue.add(conversion(a, 'registration', 'reg-1'))).toBe(true);
    expect(queue.add(conversion(a, 'registration', 'reg-1'))).toBe(true); // the operator sent it twice
    await queue.flush(); // not connected: nothing lost, nothing written
    expect(queue.size).toBe(2);
    await whenReady(conn); // the reconnect triggers a flush
    await expect.poll(() => queue.size).toBe(0);
    expect(
      await redis.client.hget(
        reportKey('acme', 'day', periodOf(new Date(ARRIVED), 'day')),
        'r|kalshi|event-specific|US',
      ),
    ).toBe('1');
    await queue.stop();
  });

  it('spills what Redis did not take at stop; the next queue in that folder counts it once and deletes the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-postback-spill-'));
    const a = await clicked('v1');
    const first = postbackBuffer(conn, log, dir, 60_000);
    first.start();
    conn.disconnect(false); // stays away
    first.add(conversion(a, 'first_deposit', 'dep-1', { currency: 'EUR', amountMinor: 5_000 }));
    await first.stop();
    expect(readdirSync(dir).filter((f) => f.startsWith('postbacks-'))).toHaveLength(1);

    const again = connectRedisFailFast({ url: redis.url }, 'test-postbacks-2', log, 300);
    await whenReady(again);
    try {
      const next = postbackBuffer(again, log, dir, 60_000);
      next.start();
      expect(next.size).toBe(1);
      await next.flush();
      expect(next.size).toBe(0);
      expect(readdirSync(dir)).toEqual([]);
      expect(
        await redis.client.hget(
          reportKey('acme', 'day', periodOf(new Date(ARRIVED), 'day')),
          'a|kalshi|event-specific|US|EUR',
        ),
      ).toBe('5000');
      await next.stop();
    } finally {
      again.disconnect();
    }
  });
});
