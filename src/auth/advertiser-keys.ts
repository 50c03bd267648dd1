/**
 * Advertiser credentials. A key is random, shown once, and stored only as HMAC-SHA256(pepper, key),
 * so a Redis dump does not leak usable keys. Verification reads Redis; every change is announced on
 * INVALIDATE_CHANNEL so API processes that cache successful checks (auth/verified-keys.ts) drop
 * them at once, and a revoked key stops working within a second on every API process.
 *
 * Up to two keys are live per advertiser so a rotation can overlap: `rotate` adds a new key and
 * keeps the previous one until `retire` (or the next rotation) drops it. The newest key stays in
 * the `keyHash` field records have always had; the previous one is `prevKeyHash`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import {
  holderTimes,
  liveSlots,
  retireSlot,
  revokeSlots,
  rotateSlots,
  slotId,
  usedField,
  type SlotFields,
} from './key-slots.js';
import { systemClock } from '../model/clock.js';

export const ADVERTISER_ID = /^[a-z0-9][a-z0-9_-]{2,63}$/;
const KEY_FORMAT = /^pwk_[A-Za-z0-9_-]{43}$/;
/** The hash of one advertiser, and the set of every advertiser id. */
export const advKey = (id: string) => `pw:adv:${id}`;
export const INDEX = 'pw:advertisers';
/** Pub/sub channel naming an advertiser whose key or status just changed. */
export const INVALIDATE_CHANNEL = 'pw:adv:changed';

/** One live key, known by a short id derived from its hash (never the key itself). */
export interface KeyRecord {
  keyId: string;
  createdAt: string;
  lastUsedAt?: string;
}

export interface AdvertiserRecord {
  id: string;
  name: string;
  status: 'active' | 'revoked';
  createdAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  /** Live keys, newest first (two during a rotation's overlap). */
  keys: KeyRecord[];
}

/** Where an advertiser's two live key hashes are kept in its hash (key-slots.ts). */
const SLOTS: SlotFields = {
  value: 'keyHash',
  created: 'keyCreatedAt',
  prev: 'prevKeyHash',
  prevCreated: 'prevKeyCreatedAt',
};
/** Last-used times are written at most this often per key and process. */
const TOUCH_EVERY_MS = 60_000;

export class AdvertiserError extends Error {
  override name = 'AdvertiserError';
}

/** A new random API key: "pwk_" and 256 bits in base64url. */
export function generateApiKey(): string {
  return `pwk_${randomBytes(32).toString('base64url')}`;
}

export class AdvertiserKeys {
  readonly #touched = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly redis: Redis,
    private readonly pepper: string,
  ) {}

  #hash(key: string): Buffer {
    return createHmac('sha256', this.pepper).update(key).digest();
  }

  async #announce(id: string): Promise<void> {
    await this.redis.publish(INVALIDATE_CHANNEL, id);
  }

  /**
   * Creates an advertiser and returns its key (the only time it is ever visible).
   * @throws AdvertiserError when the id is malformed or taken.
   */
  async create(id: string, name: string, now: Date): Promise<string> {
    if (!ADVERTISER_ID.test(id)) throw new AdvertiserError(`advertiser id must match ${ADVERTISER_ID}`);
    const key = generateApiKey();
    const created = await this.redis.hsetnx(advKey(id), 'keyHash', this.#hash(key).toString('hex'));
    if (created === 0) throw new AdvertiserError(`advertiser ${id} already exists`);
    const at = now.toISOString();
    await this.redis
      .multi()
      .hset(advKey(id), 'name', name, 'status', 'active', 'createdAt', at, 'keyCreatedAt', at)
      .sadd(INDEX, id)
      .exec();
    await this.#announce(id);
    return key;
  }

  /**
   * Adds a new key (also reactivates a revoked advertiser). The previous key keeps working until
   * `retire` or the next rotation, so clients can switch over without an outage.
   */
  async rotate(id: string, now: Date): Promise<string> {
    const key = generateApiKey();
    if (!(await rotateSlots(this.redis, advKey(id), SLOTS, this.#hash(key).toString('hex'), now)))
      throw new AdvertiserError(`no advertiser ${id}`);
    await this.#announce(id);
    return key;
  }

  /** Ends a rotation's overlap: the previous key stops working at once. Returns whether there was one. */
  async retire(id: string, _now: Date): Promise<boolean> {
    const retired = await retireSlot(this.redis, advKey(id), SLOTS);
    if (retired === undefined) throw new AdvertiserError(`no advertiser ${id}`);
    if (retired) await this.#announce(id);
    return retired;
  }

  /** Revokes every key of the advertiser; requests with them fail from the next one on. */
  async revoke(id: string, now: Date): Promise<void> {
    if (!(await revokeSlots(this.redis, advKey(id), SLOTS, now))) throw new AdvertiserError(`no advertiser ${id}`);
    await this.#announce(id);
  }

  /** Ids of the advertisers whose key is active. */
  async activeIds(): Promise<string[]> {
    const ids = await this.redis.smembers(INDEX);
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hget(advKey(id), 'status');
    const statuses = (await pipe.exec()) ?? [];
    return ids.filter((_, i) => statuses[i]?.[1] === 'active');
  }

  async list(): Promise<AdvertiserRecord[]> {
    const ids = (await this.redis.smembers(INDEX)).sort();
    const rows = await Promise.all(ids.map((id) => this.redis.hgetall(advKey(id))));
    return rows.flatMap((h, i) => {
      if (!h.status) return [];
      const keys: KeyRecord[] = liveSlots(h, SLOTS).map(({ id, ...times }) => ({ keyId: id, ...times }));
      return [
        { id: ids[i]!, name: h.name ?? '', status: h.status as AdvertiserRecord['status'], ...holderTimes(h), keys },
      ];
    });
  }

  /** True when `key` is a live key of advertiser `id`. Constant-time in the key. */
  async verify(id: string, key: string, now = new Date(systemClock())): Promise<boolean> {
    const presented = this.#hash(key);
    if (!ADVERTISER_ID.test(id) || !KEY_FORMAT.test(key)) return false;
    const [current, prev, status] = await this.redis.hmget(advKey(id), 'keyHash', 'prevKeyHash', 'status');
    // Both slots are always compared, against a same-length dummy when empty, so timing says nothing.
    const matches = (stored: string | null | undefined) => {
      const expected = stored && stored.length === 64 ? Buffer.from(stored, 'hex') : Buffer.alloc(32);
      return timingSafeEqual(presented, expected) && !!stored && stored.length === 64;
    };
    const hitCurrent = matches(current);
    const hitPrev = matches(prev);
    if (status !== 'active' || !(hitCurrent || hitPrev)) return false;
    this.#touch(id, (hitCurrent ? current : prev)!, now);
    return true;
  }

  /** Records when a key was last used; at most once a minute per key and process, off the reply's path. */
  #touch(id: string, hashHex: string, now: Date): void {
    const slot = `${id}:${slotId(hashHex)}`;
    const last = this.#touched.get(slot);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    this.#touched.set(slot, now.getTime());
    this.redis.hset(advKey(id), usedField(hashHex), now.toISOString()).catch(() => {
      // Bookkeeping only: a lost last-used time must never fail a request.
    });
  }
}
