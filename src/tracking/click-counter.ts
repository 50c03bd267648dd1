/**
 * Click counters in Redis, per operator and UTC day, so they survive restarts. A click counts once
 * per (impression id, operator, visitor): the dedupe key is SET NX with a TTL until the link
 * expires. An impression id names one built payload, which the in-process cache may serve to many
 * visitors, so the visitor (a hash of the client address) is part of the key; one visitor's
 * repeated clicks on the same list count once. The user agent is left out on purpose: a client
 * that rotates it must not turn one click into many.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ClickTarget } from './click-links.js';

export const clicksKey = (operatorId: string, day: string) => `pw:clicks:${operatorId}:${day}`;
const dedupeKey = (target: ClickTarget, visitor: string) => `pw:clickseen:${target.impressionId}:${target.operatorId}:${visitor}`;

/** Counters are kept this long; the CTR window reads far less. */
export const COUNTER_RETENTION_SECONDS = 90 * 86_400;

/** The UTC day (YYYY-MM-DD) a counter is filed under. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** A short, non-reversible visitor id from the client address: no address is stored. */
export function visitorId(clientAddress: string | undefined): string {
  return createHash('sha256').update(clientAddress ?? '').digest('base64url').slice(0, 16);
}

/**
 * Counts one click on `target`'s operator (total, per widget class, per country) unless this
 * visitor already clicked this operator from the same impression. Returns whether it counted.
 */
export async function recordClick(redis: Redis, target: ClickTarget, visitor: string, now: Date): Promise<boolean> {
  const ttl = Math.max(60, target.expiresAt - Math.floor(now.getTime() / 1000));
  const first = await redis.set(dedupeKey(target, visitor), '1', 'EX', ttl, 'NX');
  if (first !== 'OK') return false;
  const key = clicksKey(target.operatorId, utcDay(now));
  const tx = redis.multi().hincrby(key, 'total', 1).hincrby(key, `widget:${target.widget}`, 1);
  if (target.country) tx.hincrby(key, `country:${target.country}`, 1);
  await tx.expire(key, COUNTER_RETENTION_SECONDS).exec();
  return true;
}
