/**
 * Report counters: what an advertiser's attribution earned, per hour and per UTC day, in one hash
 * per advertiser and period (`pw:report:{advertiser}:{day|hour}:{period}`) whose fields are
 * `{c|i}|{operator}|{widget}|{country}` (clicks, impressions), and for conversions (conversions.ts)
 * `{r|f|d}|{operator}|{widget}|{country}` (registrations, first deposits, deposits: the first ones
 * included) and `{a|e}|{operator}|{widget}|{country}|{currency}` (deposit amount and earnings, in
 * minor units of the currency the operator reported). They count what the ranking counts:
 * a click once per visitor, operator and UTC day (the click is counted here only when it is new in
 * that operator's visitor HyperLogLog, in the same script, so a retried batch counts nothing twice),
 * an impression once per visitor, operator, widget class and UTC day, in the same script that marks
 * the visitor (impression-writes.ts), bots left out before counting.
 * Days are kept REPORT_RETENTION.day seconds, hours REPORT_RETENTION.hour.
 */
import type { ChainableCommander } from 'ioredis';

export const GRANULARITIES = ['day', 'hour'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** How long each period's counters are kept after it, in seconds (docs/contract.md, Reports). */
export const REPORT_RETENTION: Readonly<Record<Granularity, number>> = { day: 90 * 86_400, hour: 7 * 86_400 };
/** A period's length in seconds. */
export const PERIOD_SECONDS: Readonly<Record<Granularity, number>> = { day: 86_400, hour: 3_600 };

/** The period a moment is filed under: `2026-11-25` (day) or `2026-11-25T18` (hour), UTC. */
export const periodOf = (d: Date, granularity: Granularity) =>
  d.toISOString().slice(0, granularity === 'day' ? 10 : 13);

export const reportKey = (advertiserId: string, granularity: Granularity, period: string) =>
  `pw:report:${advertiserId}:${granularity}:${period}`;

/** The field of one count: clicks (`c`) or impressions (`i`) of an operator in a widget class and country. */
export const reportField = (kind: 'c' | 'i', operatorId: string, widget: string, country: string) =>
  `${kind}|${operatorId}|${widget}|${country}`;

/** A conversion as the report counts it. */
export interface CountedConversion {
  event: 'registration' | 'first_deposit' | 'deposit';
  operatorId: string;
  widget: string;
  /** The click's country (ZZ unknown). */
  country: string;
  currency?: string;
  amountMinor?: number;
  commissionMinor?: number;
}

/** The fields a conversion adds to, and by how much. */
export function conversionIncrements(c: CountedConversion): Array<[field: string, by: number]> {
  const dims = `${c.operatorId}|${c.widget}|${c.country}`;
  const out: Array<[string, number]> = [];
  if (c.event === 'registration') out.push([`r|${dims}`, 1]);
  if (c.event === 'first_deposit') out.push([`f|${dims}`, 1]);
  if (c.event !== 'registration') out.push([`d|${dims}`, 1]);
  if (c.currency && c.amountMinor) out.push([`a|${dims}|${c.currency}`, c.amountMinor]);
  if (c.currency && c.commissionMinor) out.push([`e|${dims}|${c.currency}`, c.commissionMinor]);
  return out;
}

/**
 * Seconds a key lives after its last write: the retention plus the period itself, so the whole
 * period is still there REPORT_RETENTION after it ended.
 */
export const reportTtl = (g: Granularity) => REPORT_RETENTION[g] + PERIOD_SECONDS[g];

/**
 * Adds a visitor to `uniqueKey` (the operator's visitor HyperLogLog of the day) and, only when that
 * made it a new visitor, counts one click in the advertiser's day and hour hashes. Returns 1 or 0
 * like PFADD.
 */
const ATTRIBUTED_CLICK = `
local added = redis.call('PFADD', KEYS[1], ARGV[1])
if added == 1 then
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  redis.call('EXPIRE', KEYS[2], ARGV[3])
  redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
return added`;

/** An attributed click, queued on `tx` in place of the PFADD of `uniqueKey` (same reply). */
export function queueAttributedClick(
  tx: ChainableCommander,
  uniqueKey: string,
  visitor: string,
  c: { advertiserId: string; hour: string; operatorId: string; widget: string; country?: string },
): void {
  const field = reportField('c', c.operatorId, c.widget, c.country ?? 'ZZ');
  const day = c.hour.slice(0, 10);
  tx.eval(
    ATTRIBUTED_CLICK,
    3,
    uniqueKey,
    reportKey(c.advertiserId, 'day', day),
    reportKey(c.advertiserId, 'hour', c.hour),
    visitor,
    field,
    reportTtl('day'),
    reportTtl('hour'),
  );
}
