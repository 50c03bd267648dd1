/**
 * Advertiser credentials. A key is random, shown once, and stored only as HMAC-SHA256(pepper, key),
 * so a Redis dump does not leak usable keys. Verification reads Redis; every change is announced on
 * INVALIDATE_CHANNEL so API processes that cache successful checks (auth/verified-keys.ts) drop
 * them at once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';

export const ADVERTISER_ID = /^[a-z0-9][a-z0-9_-]{2,63}$/;
const KEY_FORMAT = /^pwk_[A-Za-z0-9_-]{43}$/;
const advKey = (id: string) => `pw:adv:${id}`;
const INDEX = 'pw:advertisers';
/** Pub/sub channel naming an advertiser whose key or status just changed. */
export const INVALIDATE_CHANNEL = 'pw:adv:changed';

export interface AdvertiserRecord {
  id: string;
  name: string;
  status: 'active' | 'revoked';
  createdAt: string;
  rotatedAt?: string;
  revokedAt?: string;
}

export class AdvertiserError extends Error {
  override name = 'AdvertiserError';
}

/** A new random API key: "pwk_" and 256 bits in base64url. */
export function generateApiKey(): string {
  return `pwk_${randomBytes(32).toString('base64url')}`;
}

export class AdvertiserKeys {
  constructor(
    private readonly redis: Redis,
    private readonly pepper: string,
  ) {}

  #hash(key: string): Buffer {
    return createHmac('sha256', this.pepper).update(key).digest();
  }

  /** The stored form of `key` (hex), for comparing against a cached successful check. */
  hashKey(key: string): string {
    return this.#hash(key).toString('hex');
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
    await this.redis.multi().hset(advKey(id), 'name', name, 'status', 'active', 'createdAt', now.toISOString()).sadd(INDEX, id).exec();
    await this.#announce(id);
    return key;
  }

  /**
   * Replaces the key of an existing advertiser (also reactivates a revoked one); the old key stops
   * working at once.
   */
  async rotate(id: string, now: Date): Promise<string> {
    if (!(await this.redis.exists(advKey(id)))) throw new AdvertiserError(`no advertiser ${id}`);
    const key = generateApiKey();
    await this.redis.hset(advKey(id), 'keyHash', this.#hash(key).toString('hex'), 'status', 'active', 'rotatedAt', now.toISOString());
    await this.#announce(id);
    return key;
  }

  /** Revokes the advertiser's key; requests with it fail from the next one on. */
  async revoke(id: string, now: Date): Promise<void> {
    if (!(await this.redis.exists(advKey(id)))) throw new AdvertiserError(`no advertiser ${id}`);
    await this.redis.hset(advKey(id), 'status', 'revoked', 'keyHash', '', 'revokedAt', now.toISOString());
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
    return rows.flatMap((h, i) =>
      h.status
        ? [{ id: ids[i]!, name: h.name ?? '', status: h.status as AdvertiserRecord['status'], createdAt: h.createdAt ?? '', rotatedAt: h.rotatedAt, revokedAt: h.revokedAt }]
        : [],
    );
  }

  /** True when `key` is the active key of advertiser `id`. Constant-time in the key. */
  async verify(id: string, key: string): Promise<boolean> {
    const presented = this.#hash(key);
    if (!ADVERTISER_ID.test(id) || !KEY_FORMAT.test(key)) return false;
    const [stored, status] = await this.redis.hmget(advKey(id), 'keyHash', 'status');
    // Compare against a same-length dummy when nothing is stored, so timing says nothing either way.
    const expected = stored && stored.length === 64 ? Buffer.from(stored, 'hex') : Buffer.alloc(32);
    const equal = timingSafeEqual(presented, expected);
    return equal && status === 'active' && !!stored;
  }
}
