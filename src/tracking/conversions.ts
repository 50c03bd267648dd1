/**
 * Conversions: an operator's postback (a registration, a first deposit, a deposit) attributed to
 * the click whose id it quotes (click-ids.ts), and so to that click's advertiser, operator, widget
 * class, placement and jurisdiction. Each is counted once per operator event id: the event's record
 * `pw:conv:{operator}:{event id}` is set (NX) in the same script that adds it to the advertiser's
 * report counters (report-counters.ts), so a replayed postback, or a batch written twice, counts
 * nothing twice. The record keeps the whole attribution (placement and jurisdiction included) for
 * CONVERSION_RETENTION_SECONDS. A conversion is filed under the hour and day the postback arrived.
 */
import type { Redis } from 'ioredis';
import type { CurrencyCode } from '../model/index.js';
import type { RedisBreaker } from '../store/redis-breaker.js';
import { ClickRecord, clickKey } from './click-ids.js';
import { conversionIncrements, periodOf, REPORT_RETENTION, reportKey, reportTtl } from './report-counters.js';

export const POSTBACK_EVENTS = ['registration', 'first_deposit', 'deposit'] as const;
export type PostbackEvent = (typeof POSTBACK_EVENTS)[number];

/** One postback, checked (signature, form, click id not expired) and not yet counted. */
export interface Conversion {
  operatorId: string;
  clickId: string;
  event: PostbackEvent;
  /** The operator's own id of the event: what makes a replay a replay. */
  eventId: string;
  currency?: CurrencyCode;
  /** The deposit, in minor units of `currency` (deposits only). */
  amountMinor?: number;
  /** What the operator reports earned by this event (its commission), in minor units of `currency`. */
  commissionMinor?: number;
  /** When the postback arrived (ms). */
  atMs: number;
}

export type ConversionOutcome = 'counted' | 'duplicate' | 'unknown_click';

/** The record of an operator's event, which also marks it counted. */
export const conversionKey = (operatorId: string, eventId: string) => `pw:conv:${operatorId}:${eventId}`;
/** Event records are kept as long as the day counters they were counted in. */
export const CONVERSION_RETENTION_SECONDS = REPORT_RETENTION.day;

/**
 * KEYS[1] the event's record, then the report hashes (day, hour) when the click credits an advertiser.
 * ARGV: record, its TTL, the number of fields n, n field/increment pairs, each hash's TTL.
 * Returns 1 when counted, 0 when the event was counted before.
 */
const COUNT = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 0 end
local n = tonumber(ARGV[3])
for k = 2, #KEYS do
  for i = 0, n - 1 do redis.call('HINCRBY', KEYS[k], ARGV[4 + 2 * i], ARGV[5 + 2 * i]) end
  redis.call('EXPIRE', KEYS[k], ARGV[4 + 2 * n + k - 2])
end
return 1`;

/** The click a postback quotes, when it exists and was a click on the postback's operator. */
function clickOf(conv: Conversion, stored: unknown): ClickRecord | undefined {
  if (typeof stored !== 'string') return undefined;
  let record: ClickRecord;
  try {
    record = ClickRecord.parse(JSON.parse(stored));
  } catch {
    return undefined;
  }
  // Another operator's click is not this operator's to convert: as unknown as a made-up id.
  return record.o === conv.operatorId ? record : undefined;
}

/** Counts one conversion through the request path's breaker: its outcome; rejects while Redis fails. */
export type ConversionWriter = (conversion: Conversion) => Promise<ConversionOutcome | undefined>;

/** The writer of one postback's conversion on `redis` (the request path's connection). */
export const conversionWriter =
  (redis: Redis, breaker: RedisBreaker): ConversionWriter =>
  async (conversion) =>
    (await breaker.execute(() => writeConversions(redis, [conversion])))[0];

/**
 * Counts `conversions`: one pipeline reading their clicks, then one script per conversion whose
 * click exists. Returns each one's outcome, in order.
 * @throws when Redis fails; the batch may then be written again as a whole (nothing counts twice).
 */
export async function writeConversions(redis: Redis, conversions: readonly Conversion[]): Promise<ConversionOutcome[]> {
  const reads = redis.pipeline();
  for (const c of conversions) reads.get(clickKey(c.clickId));
  const clicks = ((await reads.exec()) ?? []).map(([err, value], i) => {
    if (err) throw err;
    return clickOf(conversions[i]!, value);
  });
  const writes = redis.pipeline();
  conversions.forEach((c, i) => {
    const click = clicks[i];
    if (!click) return;
    const at = new Date(c.atMs);
    const record = {
      click_id: c.clickId,
      event: c.event,
      ...(c.currency && { currency: c.currency }),
      ...(c.amountMinor !== undefined && { amount_minor: c.amountMinor }),
      ...(c.commissionMinor !== undefined && { commission_minor: c.commissionMinor }),
      ...(click.a && { advertiser_id: click.a }),
      widget: click.w,
      placement: click.p,
      ...(click.j && { jurisdiction: click.j }),
      clicked_at: new Date(click.t).toISOString(),
      received_at: at.toISOString(),
    };
    const increments = conversionIncrements({ ...c, widget: click.w, country: click.j?.slice(0, 2) ?? 'ZZ' });
    const hashes = click.a
      ? [reportKey(click.a, 'day', periodOf(at, 'day')), reportKey(click.a, 'hour', periodOf(at, 'hour'))]
      : [];
    writes.eval(
      COUNT,
      1 + hashes.length,
      conversionKey(c.operatorId, c.eventId),
      ...hashes,
      JSON.stringify(record),
      CONVERSION_RETENTION_SECONDS,
      increments.length,
      ...increments.flat(),
      ...(hashes.length > 0 ? [reportTtl('day'), reportTtl('hour')] : []),
    );
  });
  const written = (await writes.exec()) ?? [];
  let w = 0;
  return clicks.map((click) => {
    if (!click) return 'unknown_click';
    const [err, counted] = written[w++] ?? [new Error('no reply')];
    if (err) throw err;
    return counted === 1 ? 'counted' : 'duplicate';
  });
}
