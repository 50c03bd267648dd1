/**
 * Click counts in Redis, per operator and UTC day, so they survive restarts. A click counts once
 * per visitor (a hash of the client address), operator and day: each (operator, day) holds a
 * HyperLogLog of the visitors who clicked, and the count is its cardinality. Memory stays bounded
 * (at most 12 kB a key) however many clicks arrive, and adding a visitor twice changes nothing,
 * so a batch of clicks can be retried after a failed write without counting anything twice. The
 * same holds per widget class and per country. Nothing a caller chooses (impression id,
 * advertiser id, user agent) is part of the key: varying it cannot mint clicks.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { clickKey, type ClickRecord } from './click-ids.js';
import type { ClickTarget } from './click-links.js';
import { periodOf, queueAttributedClick } from './report-counters.js';
import { systemClock } from '../model/clock.js';

/** HyperLogLog of the visitors who clicked `operatorId` on `day`. */
export const clicksKey = (operatorId: string, day: string) => `pw:uclicks:${operatorId}:${day}`;
/** The same, restricted to one widget class or one country (`widget:broad`, `country:GB`). */
export const clicksByKey = (operatorId: string, day: string, dimension: string) =>
  `pw:uclicks:${operatorId}:${day}:${dimension}`;

/** Counters are kept this long; the CTR window reads far less. */
export const COUNTER_RETENTION_SECONDS = 90 * 86_400;
/** How long a click id resolves by default (CLICK_ATTRIBUTION_DAYS): the usual affiliate window. */
export const DEFAULT_ATTRIBUTION_MS = 30 * 86_400_000;

/** The UTC day (YYYY-MM-DD) a counter is filed under. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** A short, non-reversible visitor id from the client address: no address is stored. */
export function visitorId(clientAddress: string | undefined): string {
  return createHash('sha256')
    .update(clientAddress ?? '')
    .digest('base64url')
    .slice(0, 16);
}

/** One click to count. */
export interface Click {
  operatorId: string;
  widget: ClickTarget['widget'];
  country?: string;
  visitor: string;
  day: string;
  /** The advertiser the signed link credits, and the UTC hour (`2026-11-25T18`) its report files it under. */
  advertiserId?: string;
  hour?: string;
  /**
   * The click id it carries to the operator (click-ids.ts), with what the id resolves to besides
   * the fields above: the placement, the link's whole jurisdiction ("US-NJ") and the time (ms).
   */
  id?: string;
  placement?: string;
  jurisdiction?: string;
  atMs?: number;
}

/** The click of `visitor` on `target` at `now`, carrying click id `id` when given. */
export const clickOf = (target: ClickTarget, visitor: string, now: Date, id?: string): Click => ({
  operatorId: target.operatorId,
  widget: target.widget,
  // Counted per country: the link's jurisdiction may name a subdivision ("US-NJ").
  country: target.country?.slice(0, 2),
  visitor,
  day: utcDay(now),
  advertiserId: target.advertiserId,
  hour: periodOf(now, 'hour'),
  id,
  placement: target.placement,
  jurisdiction: target.country,
  atMs: now.getTime(),
});

/** What a click's id resolves to (undefined for a click without an id). */
function recordOf(c: Click): ClickRecord | undefined {
  if (c.id === undefined || c.atMs === undefined) return undefined;
  return {
    o: c.operatorId,
    w: c.widget,
    p: c.placement ?? '',
    ...(c.jurisdiction && { j: c.jurisdiction }),
    ...(c.advertiserId && { a: c.advertiserId }),
    t: c.atMs,
  };
}

/**
 * Adds `clicks` in one transaction, with what each click id resolves to (kept `attributionMs` after
 * its click, an absolute expiry, so a batch written again later keeps the same end). Returns, per
 * click, whether it changed the operator's count (a first click of that visitor that day;
 * HyperLogLog makes this exact only for small counts).
 * @throws when Redis fails; the batch may then be written again as a whole.
 */
export async function writeClicks(
  redis: Redis,
  clicks: readonly Click[],
  attributionMs = DEFAULT_ATTRIBUTION_MS,
  nowMs = systemClock(),
): Promise<boolean[]> {
  const tx = redis.multi();
  const keys = new Set<string>();
  for (const c of clicks) {
    const dims = [`widget:${c.widget}`, ...(c.country ? [`country:${c.country}`] : [])];
    // A click with an advertiser also counts in its report, when (and only when) it is a new visitor here.
    if (c.advertiserId && c.hour)
      queueAttributedClick(tx, clicksKey(c.operatorId, c.day), c.visitor, {
        ...c,
        advertiserId: c.advertiserId,
        hour: c.hour,
      });
    else tx.pfadd(clicksKey(c.operatorId, c.day), c.visitor);
    keys.add(clicksKey(c.operatorId, c.day));
    for (const dim of dims) {
      tx.pfadd(clicksByKey(c.operatorId, c.day, dim), c.visitor);
      keys.add(clicksByKey(c.operatorId, c.day, dim));
    }
  }
  for (const key of keys) tx.expire(key, COUNTER_RETENTION_SECONDS);
  // After every count, so the replies above keep their places.
  for (const c of clicks) {
    const record = recordOf(c);
    const endMs = (c.atMs ?? 0) + attributionMs;
    if (record && endMs > nowMs) tx.set(clickKey(c.id!), JSON.stringify(record), 'PXAT', endMs);
  }
  const results = (await tx.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0]!;
  const changed: boolean[] = [];
  let i = 0;
  for (const c of clicks) {
    changed.push(results[i]?.[1] === 1);
    i += 2 + (c.country ? 1 : 0);
  }
  return changed;
}

/** Counts one click at once (tests and tools; the API buffers them in ClickBuffer). */
export async function recordClick(redis: Redis, target: ClickTarget, visitor: string, now: Date): Promise<boolean> {
  const [changed] = await writeClicks(redis, [clickOf(target, visitor, now)]);
  return changed ?? false;
}
