/**
 * Two live credentials per holder, so a rotation can overlap: advertiser keys (advertiser-keys.ts)
 * and operators' postback secrets (postback-secrets.ts) are kept alike, in one Redis hash per
 * holder with a `status`, times, and two slots whose field names each kind names (`SlotFields`).
 * `rotate` moves the newest credential to the previous slot (dropping the older previous) and puts
 * a new one in; `retire` ends the overlap; `revoke` empties both. Each slot's value names its
 * last-used field by a short id (its first 12 characters), which is also how a person sees it.
 */
import type { Redis } from 'ioredis';

/** The hash fields of a kind's two slots: the newest value and when it was made, the previous one and when. */
export interface SlotFields {
  value: string;
  created: string;
  prev: string;
  prevCreated: string;
}

/** One live credential as a person sees it: never the value itself. */
export interface SlotRecord {
  id: string;
  createdAt: string;
  lastUsedAt?: string;
}

/** The short public id of a stored value (a key hash, a nonce). */
export const slotId = (value: string) => value.slice(0, 12);
/** The field of a value's last use. */
export const usedField = (value: string) => `usedAt:${slotId(value)}`;

// Atomic: the newest value becomes the previous one (its last-used time kept, the older previous's
// dropped), the new value is added, and the holder is active. ARGV: value, time, then the four
// field names of SlotFields.
const ROTATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local cur = redis.call('HMGET', KEYS[1], ARGV[3], ARGV[4], 'createdAt', ARGV[5], 'status')
if cur[4] and cur[4] ~= '' then redis.call('HDEL', KEYS[1], 'usedAt:' .. string.sub(cur[4], 1, 12)) end
if cur[5] == 'active' and cur[1] and cur[1] ~= '' then
  redis.call('HSET', KEYS[1], ARGV[5], cur[1], ARGV[6], cur[2] or cur[3])
else
  redis.call('HDEL', KEYS[1], ARGV[5], ARGV[6])
end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[1], ARGV[4], ARGV[2], 'status', 'active', 'rotatedAt', ARGV[2])
return 1`;

/** Rotates `key`'s slots to `value`; false when there is no such holder. */
export async function rotateSlots(redis: Redis, key: string, f: SlotFields, value: string, at: Date): Promise<boolean> {
  return (await redis.eval(ROTATE, 1, key, value, at.toISOString(), f.value, f.created, f.prev, f.prevCreated)) === 1;
}

/** Drops the previous value; resolves whether there was one, undefined when there is no such holder. */
export async function retireSlot(redis: Redis, key: string, f: SlotFields): Promise<boolean | undefined> {
  const [status, prev] = await redis.hmget(key, 'status', f.prev);
  if (!status) return undefined;
  if (!prev) return false;
  await redis.hdel(key, f.prev, f.prevCreated, usedField(prev));
  return true;
}

/** Empties both slots and marks the holder revoked; false when there is no such holder. */
export async function revokeSlots(redis: Redis, key: string, f: SlotFields, at: Date): Promise<boolean> {
  const [status, current, prev] = await redis.hmget(key, 'status', f.value, f.prev);
  if (!status) return false;
  const used = [current, prev].filter((v): v is string => !!v).map(usedField);
  await redis
    .multi()
    .hset(key, 'status', 'revoked', f.value, '', 'revokedAt', at.toISOString())
    .hdel(key, f.prev, f.prevCreated, f.created, ...used)
    .exec();
  return true;
}

/** The live credentials of a stored hash, newest first (records from before `created` existed fall back on the holder's times). */
export function liveSlots(h: Readonly<Record<string, string>>, f: SlotFields): SlotRecord[] {
  const out: SlotRecord[] = [];
  for (const [value, created] of [
    [h[f.value], h[f.created] ?? h.rotatedAt ?? h.createdAt],
    [h[f.prev], h[f.prevCreated]],
  ]) {
    if (!value) continue;
    const lastUsedAt = h[usedField(value)];
    out.push({ id: slotId(value), createdAt: created ?? '', ...(lastUsedAt ? { lastUsedAt } : {}) });
  }
  return out;
}

/** A holder's status and times as a person sees them. */
export function holderTimes(h: Readonly<Record<string, string>>): {
  createdAt: string;
  rotatedAt?: string;
  revokedAt?: string;
} {
  return {
    createdAt: h.createdAt ?? '',
    ...(h.rotatedAt && { rotatedAt: h.rotatedAt }),
    ...(h.revokedAt && { revokedAt: h.revokedAt }),
  };
}
