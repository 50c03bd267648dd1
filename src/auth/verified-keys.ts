/**
 * Advertiser key checks for the API process: a successful check is reused for a short while, so
 * an advertiser's traffic does not cost a Redis read per request, and the ids of active
 * advertisers are held in memory, so public widgets can tell a registered advertiser_id from an
 * invented one without Redis. Both follow INVALIDATE_CHANNEL: a revoked or rotated key stops
 * working on every process as soon as the notice arrives; after a lost subscription (Redis was
 * away) everything cached is dropped.
 *
 * Through a Redis outage a key that verified within the last `outageGraceSeconds` keeps working
 * when Redis cannot be asked (an advertiser must not lose service to our outage). Reconnecting drops
 * every cached check, so revocations made meanwhile apply as soon as Redis answers, but keeps that
 * outage list: right after a reconnect or a failover Redis may still fail a check (the breaker open,
 * a slow first command), and a key known good must not get a 503 for it. An entry leaves the list
 * when Redis itself says no (a revoked key), or with a change notice for its advertiser.
 *
 * Which addresses each key verified from is remembered too (`fromAddressSeconds`): a failed-
 * authentication block on an address never refuses a key that verified from it recently, so one
 * misconfigured server cannot lock its neighbours behind the same egress address out (the key is
 * still checked; only the block is waived). A key guessed during the block never verified, so the
 * block still gives a guesser nothing.
 *
 * With a vault (advertiser-vault.ts), every reload also keeps the disk copy of the records, and a
 * check that fails because the advertiser's record is gone from Redis restores it and checks again.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../runtime/log.js';
import { redisBreaker, type RedisBreaker } from '../store/redis-breaker.js';
import { INVALIDATE_CHANNEL, type AdvertiserKeys } from './advertiser-keys.js';
import type { AdvertiserVault } from './advertiser-vault.js';

// New advertisers show up through the channel; this reload only repairs a missed notice.
const RELOAD_MS = 30_000;

export interface VerifiedKeysOptions {
  /** While Redis cannot answer, a key that verified within this many seconds is accepted (0: none). */
  outageGraceSeconds?: number;
  /** A key that verified from an address within this many seconds is never refused by that address's block. */
  fromAddressSeconds?: number;
  /** The request path's breaker: a failing Redis is not asked again for every key. */
  breaker?: RedisBreaker;
  /** The disk copy of the advertiser records (restored when Redis loses them). */
  vault?: AdvertiserVault;
}

export class VerifiedKeys {
  /**
   * Advertiser id → the key that last verified, as bytes. The key itself, not its hash: hashing
   * (an HMAC) on every request would cost more than the rest of a cached widget answer, and the key
   * is in this process's memory with every request anyway. Compared in constant time.
   */
  readonly #cache: LRUCache<string, Buffer> | undefined;
  /** Advertiser id → the key that last verified, for outageGraceSeconds: used only when Redis cannot answer. */
  readonly #lastGood: LRUCache<string, Buffer> | undefined;
  /** `${address}\n${id}` → the key that last verified from that address (block waivers). */
  readonly #fromAddress: LRUCache<string, Buffer> | undefined;
  readonly #breaker: RedisBreaker;
  readonly #vault: AdvertiserVault | undefined;
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
    { outageGraceSeconds = 0, fromAddressSeconds = 0, breaker = redisBreaker(), vault }: VerifiedKeysOptions = {},
  ) {
    this.#cache = cacheSeconds > 0 ? new LRUCache({ max: 10_000, ttl: cacheSeconds * 1000 }) : undefined;
    this.#lastGood = outageGraceSeconds > 0 ? new LRUCache({ max: 10_000, ttl: outageGraceSeconds * 1000 }) : undefined;
    this.#fromAddress =
      fromAddressSeconds > 0 ? new LRUCache({ max: 10_000, ttl: fromAddressSeconds * 1000 }) : undefined;
    this.#breaker = breaker;
    this.#vault = vault;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, id: string) => {
      if (channel !== INVALIDATE_CHANNEL) return;
      this.#generation++;
      this.#cache?.delete(id);
      this.#lastGood?.delete(id);
      void this.#reload();
    });
    // Notices sent while the subscription was down are lost: forget every cached check, so the
    // next request asks Redis; the outage list stays until Redis answers for each key.
    this.subscriber.on('ready', () => {
      this.#generation++;
      this.#cache?.clear();
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

  /** True when `key` verified for `id` from `address` within `fromAddressSeconds` (in memory): its block is waived. */
  verifiedFrom(address: string, id: string, key: string): boolean {
    return this.#matches(this.#fromAddress?.get(`${address}\n${id}`), key);
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
   * within the outage grace. `address` (the client's address key) is remembered with a success.
   * @throws when Redis cannot answer and the key is not known good (the caller answers 503).
   */
  async verify(id: string, key: string, address?: string): Promise<boolean> {
    if (this.verifiedRecently(id, key)) return true;
    const generation = this.#generation;
    let ok: boolean;
    try {
      ok = await this.#ask(id, key);
    } catch (err) {
      if (this.#matches(this.#lastGood?.get(id, { updateAgeOnGet: false }), key)) return true;
      throw err;
    }
    if (!ok) {
      // Redis says no: a key on the outage list was revoked meanwhile.
      if (this.#matches(this.#lastGood?.get(id, { updateAgeOnGet: false }), key)) this.#lastGood?.delete(id);
      return false;
    }
    if (generation === this.#generation) {
      this.#cache?.set(id, Buffer.from(key));
      this.#lastGood?.set(id, Buffer.from(key));
    }
    if (address !== undefined) this.#fromAddress?.set(`${address}\n${id}`, Buffer.from(key));
    return true;
  }

  /** Redis's answer; a no for an advertiser whose record Redis lost is asked again after the vault restores it. */
  async #ask(id: string, key: string): Promise<boolean> {
    const ok = await this.#breaker.execute(() => this.keys.verify(id, key));
    if (ok || !this.#vault || !(await this.#vault.restoreIfLost(id).catch(() => false))) return ok;
    return this.#breaker.execute(() => this.keys.verify(id, key));
  }

  async #reload(): Promise<void> {
    // Beside, not before: a restore announces each advertiser it puts back, which reloads again.
    void this.#vault?.sync();
    try {
      this.#active = new Set(await this.keys.activeIds());
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'advertiser ids not reloaded; keeping the last list');
    }
  }
}
