/**
 * Advertiser key checks for the API process: a successful check is reused for a short while, so
 * an advertiser's traffic does not cost a Redis read per request, and the ids of active
 * advertisers are held in memory, so public widgets can tell a registered advertiser_id from an
 * invented one without Redis. Both follow INVALIDATE_CHANNEL: a revoked or rotated key stops
 * working on every process as soon as the notice arrives; after a lost subscription (Redis was
 * away) everything cached is dropped.
 *
 * Through a Redis outage a key that verified within the last `outageGraceSeconds` keeps working
 * when Redis cannot be asked (an advertiser must not lose service to our outage); revocations made
 * meanwhile apply as soon as Redis is back, since reconnecting drops every cached check.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../log.js';
import { redisBreaker, type RedisBreaker } from '../store/redis-breaker.js';
import { INVALIDATE_CHANNEL, type AdvertiserKeys } from './advertiser-keys.js';

// New advertisers show up through the channel; this reload only repairs a missed notice.
const RELOAD_MS = 30_000;

export class VerifiedKeys {
  /**
   * Advertiser id → the key that last verified, as bytes. The key itself, not its hash: hashing
   * (an HMAC) on every request would cost more than the rest of a cached widget answer, and the key
   * is in this process's memory with every request anyway. Compared in constant time.
   */
  readonly #cache: LRUCache<string, Buffer> | undefined;
  /** Advertiser id → the key that last verified, for outageGraceSeconds: used only when Redis cannot answer. */
  readonly #lastGood: LRUCache<string, Buffer> | undefined;
  #active = new Set<string>();
  /** The key under check, as bytes (verifiedRecently). */
  #scratch = Buffer.alloc(0);
  #timer: NodeJS.Timeout | undefined;
  /** Bumped by every notice: a check that started before one must not be cached after it. */
  #generation = 0;

  constructor(
    private readonly keys: AdvertiserKeys,
    private readonly subscriber: Redis,
    cacheSeconds: number,
    private readonly log: Logger,
    outageGraceSeconds = 0,
    /** The request path's breaker: a failing Redis is not asked again for every key. */
    private readonly breaker: RedisBreaker = redisBreaker(),
  ) {
    this.#cache = cacheSeconds > 0 ? new LRUCache({ max: 10_000, ttl: cacheSeconds * 1000 }) : undefined;
    this.#lastGood = outageGraceSeconds > 0 ? new LRUCache({ max: 10_000, ttl: outageGraceSeconds * 1000 }) : undefined;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, id: string) => {
      if (channel !== INVALIDATE_CHANNEL) return;
      this.#generation++;
      this.#cache?.delete(id);
      this.#lastGood?.delete(id);
      void this.#reload();
    });
    // Notices sent while the subscription was down are lost: forget every cached check.
    this.subscriber.on('ready', () => {
      this.#generation++;
      this.#cache?.clear();
      this.#lastGood?.clear();
      void this.#reload();
    });
    await this.subscriber.subscribe(INVALIDATE_CHANNEL);
    await this.#reload();
    this.#timer = setInterval(() => void this.#reload(), RELOAD_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** True when `id` names an advertiser with an active key (in memory, no Redis). */
  isRegistered(id: string): boolean {
    return this.#active.has(id);
  }

  /** True when `key` verified for `id` within the cache time (in memory, no Redis). */
  verifiedRecently(id: string, key: string): boolean {
    return this.#matches(this.#cache?.get(id), key);
  }

  /** True when `cached` holds the bytes of `key` (constant time). */
  #matches(cached: Buffer | undefined, key: string): boolean {
    const length = Buffer.byteLength(key);
    if (cached === undefined || cached.length !== length) return false;
    // The key's bytes go into a buffer kept for the next check: no Buffer per request.
    if (this.#scratch.length !== length) this.#scratch = Buffer.alloc(length);
    this.#scratch.write(key);
    return timingSafeEqual(cached, this.#scratch);
  }

  /**
   * True when `key` is the active key of `id`; while Redis cannot answer, true when it verified
   * within the outage grace.
   * @throws when Redis cannot answer and the key is not known good (the caller answers 503).
   */
  async verify(id: string, key: string): Promise<boolean> {
    if (this.verifiedRecently(id, key)) return true;
    const generation = this.#generation;
    let ok: boolean;
    try {
      ok = await this.breaker.execute(() => this.keys.verify(id, key));
    } catch (err) {
      if (this.#matches(this.#lastGood?.get(id, { updateAgeOnGet: false }), key)) return true;
      throw err;
    }
    if (ok && generation === this.#generation) {
      this.#cache?.set(id, Buffer.from(key));
      this.#lastGood?.set(id, Buffer.from(key));
    }
    return ok;
  }

  async #reload(): Promise<void> {
    try {
      this.#active = new Set(await this.keys.activeIds());
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'advertiser ids not reloaded; keeping the last list');
    }
  }
}
