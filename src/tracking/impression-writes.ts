/**
 * Impression counts in Redis. An impression counts once per visitor (a hash of the client address),
 * operator, widget class and UTC day, whichever API process the visitor's reports reach: each
 * visitor has a small hash per day of the (widget class, operator) pairs already counted (a hash,
 * not a set: Redis keeps a small hash of strings compact), and one script adds to it and, only for
 * pairs it did not hold, counts into the operator's day hash
 * (`pw:impressions:{op}:{day}`, the ranking's input) and, for a widget with an advertiser's
 * attribution, into that advertiser's report (report-counters.ts). Marking and counting happen
 * together, so a batch written again after a failed write counts nothing twice.
 */
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { COUNTER_RETENTION_SECONDS, utcDay } from './click-counter.js';
import type { ImpressionTarget, ImpressionWidget } from './impression-links.js';
import { periodOf, reportField, reportKey, reportTtl } from './report-counters.js';

/** The operator's impressions of the day: `total` and `widget:{w}`. */
export const impressionsKey = (operatorId: string, day: string) => `pw:impressions:${operatorId}:${day}`;
/** The (widget class, operator) pairs counted for `visitor` on `day`: fields `{widget}|{op}`. */
export const impressionSeenKey = (visitor: string, day: string) => `pw:iseen:${day}:${visitor}`;

/** A visitor's hash outlives its day by a day, for reports that reach Redis late (a spilled batch). */
export const SEEN_RETENTION_SECONDS = 2 * 86_400;

/** One reported impression: the operators a visitor saw in a widget. */
export interface Impression {
  visitor: string;
  widget: ImpressionWidget;
  operatorIds: readonly string[];
  /** The UTC day and hour (`2026-11-25T18`) it is filed under: when it was reported. */
  day: string;
  hour: string;
  /** The advertiser the widget was attributed to, and the viewer's country (its report's column). */
  advertiserId?: string;
  country: string;
}

/** The impression `visitor` reported for `target` at `now`. */
export const impressionOf = (
  target: Pick<ImpressionTarget, 'widget' | 'operatorIds' | 'advertiserId' | 'country'>,
  visitor: string,
  now: Date,
): Impression => ({
  visitor,
  widget: target.widget,
  operatorIds: target.operatorIds,
  day: utcDay(now),
  hour: periodOf(now, 'hour'),
  advertiserId: target.advertiserId,
  // Counted per country: the URL's jurisdiction may name a subdivision ("US-NJ").
  country: target.country?.slice(0, 2) ?? 'ZZ',
});

/**
 * KEYS: the visitor's hash, each operator's day hash, then (attributed only) the advertiser's day
 * and hour report hashes. ARGV: the operator count n, the widget class, the visitor hash's
 * retention, the n operator ids, then (attributed only) their n report fields. Returns how many
 * operators counted. The counters' retention is set once per batch (writeImpressions).
 */
const COUNT_NEW = `
local n = tonumber(ARGV[1])
local widget = ARGV[2]
local attributed = #KEYS > n + 1
local counted = 0
for i = 1, n do
  if redis.call('HSETNX', KEYS[1], widget .. '|' .. ARGV[3 + i], 1) == 1 then
    counted = counted + 1
    redis.call('HINCRBY', KEYS[1 + i], 'total', 1)
    redis.call('HINCRBY', KEYS[1 + i], 'widget:' .. widget, 1)
    if attributed then
      redis.call('HINCRBY', KEYS[n + 2], ARGV[3 + n + i], 1)
      redis.call('HINCRBY', KEYS[n + 3], ARGV[3 + n + i], 1)
    end
  end
end
if counted > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return counted`;

const COUNT_NEW_SHA = createHash('sha1').update(COUNT_NEW).digest('hex');

/** Loads the counting script (Redis keeps it until it restarts; EVALSHA then answers NOSCRIPT). */
export async function loadImpressionScript(redis: Redis): Promise<void> {
  await redis.script('LOAD', COUNT_NEW);
}

/** True when Redis answered that it does not hold the script (restarted, or a new primary). */
export const isNoScript = (err: unknown) => err instanceof Error && err.message.startsWith('NOSCRIPT');

/**
 * Counts `impressions` in one pipeline (EVALSHA: load the script first), then sets the retention
 * of every counter it touched.
 * @throws the first error Redis answered; the batch may then be written again as a whole.
 */
export async function writeImpressions(redis: Redis, impressions: readonly Impression[]): Promise<void> {
  const pipe = redis.pipeline();
  const retention = new Map<string, number>();
  for (const imp of impressions) {
    const keys = [impressionSeenKey(imp.visitor, imp.day)];
    for (const id of imp.operatorIds) {
      const key = impressionsKey(id, imp.day);
      keys.push(key);
      retention.set(key, COUNTER_RETENTION_SECONDS);
    }
    const args: Array<string | number> = [
      imp.operatorIds.length,
      imp.widget,
      SEEN_RETENTION_SECONDS,
      ...imp.operatorIds,
    ];
    if (imp.advertiserId) {
      const day = reportKey(imp.advertiserId, 'day', imp.day);
      const hour = reportKey(imp.advertiserId, 'hour', imp.hour);
      keys.push(day, hour);
      retention.set(day, reportTtl('day')).set(hour, reportTtl('hour'));
      for (const id of imp.operatorIds) args.push(reportField('i', id, imp.widget, imp.country));
    }
    pipe.evalsha(COUNT_NEW_SHA, keys.length, ...keys, ...args);
  }
  for (const [key, seconds] of retention) pipe.expire(key, seconds);
  const failed = ((await pipe.exec()) ?? []).find(([err]) => err);
  if (failed) throw failed[0]!;
}

/** Counts impressions at once, loading the script first (tests and tools; the API batches them in ImpressionCounter). */
export async function recordImpressions(redis: Redis, impressions: readonly Impression[]): Promise<void> {
  await loadImpressionScript(redis);
  await writeImpressions(redis, impressions);
}
