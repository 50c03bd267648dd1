/**
 * The API process's copy of every operator's live postback secrets (postback-secrets.ts), held in
 * memory so a postback is authenticated without Redis, and so postbacks that arrive while Redis is
 * away can still be told from forgeries and buffered. Follows CHANGED_CHANNEL: a rotation, a retire
 * or a revocation applies on every process as soon as its notice arrives; after a lost subscription
 * and every 30 s the whole set is reloaded. While Redis is away the last set loaded stays in use;
 * until one has loaded (a process that started while Redis was away) nothing can be checked.
 *
 * Which addresses each secret verified from is remembered too (`fromAddressSeconds`), as for
 * advertiser keys (verified-keys.ts): a failed-authentication block on an address never refuses a
 * secret that verified from it recently, so an operator's server left on a retired secret cannot
 * hold up its others behind the same egress address, while a right signature new to the address
 * gets nothing from the block.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../runtime/log.js';
import { CHANGED_CHANNEL, postbackSignature, type PostbackSecrets } from './postback-secrets.js';

const RELOAD_MS = 30_000;
/** Last-used times are written at most this often per secret and process. */
const TOUCH_EVERY_MS = 60_000;

export class PostbackKeyring {
  #secrets = new Map<string, Array<{ key: Buffer; secretId: string }>>();
  #loaded = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #touched = new LRUCache<string, number>({ max: 1_000 });
  /** `address\noperator` → the ids of the secrets that verified from there lately. */
  readonly #fromAddress: LRUCache<string, readonly string[]> | undefined;

  constructor(
    private readonly store: PostbackSecrets,
    private readonly subscriber: Redis,
    private readonly log: Logger,
    { fromAddressSeconds = 0 }: { fromAddressSeconds?: number } = {},
  ) {
    this.#fromAddress =
      fromAddressSeconds > 0 ? new LRUCache({ max: 10_000, ttl: fromAddressSeconds * 1000 }) : undefined;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string) => {
      if (channel === CHANGED_CHANNEL) void this.reload();
    });
    this.subscriber.on('ready', () => void this.reload());
    await this.subscriber.subscribe(CHANGED_CHANNEL);
    await this.reload();
    this.#timer = setInterval(() => void this.reload(), RELOAD_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async reload(): Promise<void> {
    try {
      const live = await this.store.live();
      this.#secrets = new Map(
        [...live].map(([op, secrets]) => [
          op,
          secrets.map((s) => ({ key: Buffer.from(s.secret), secretId: s.secretId })),
        ]),
      );
      this.#loaded = true;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'postback secrets not reloaded; keeping the last set');
    }
  }

  /** Whether the secrets were loaded once: before that a signature cannot be told from a forgery. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * The id of the live secret of `operatorId` whose HMAC-SHA256 of `signed` is `signature` (hex), if
   * one's is. Every live secret is tried, each compared in constant time. A match is a postback's
   * authentication; `accept` records it once the address's block, if any, has been consulted.
   */
  match(operatorId: string, signed: string, signature: string): string | undefined {
    const secrets = this.#secrets.get(operatorId);
    if (!secrets || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
    const given = Buffer.from(signature, 'hex');
    let matched: string | undefined;
    for (const { key, secretId } of secrets) {
      if (timingSafeEqual(Buffer.from(postbackSignature(key, signed), 'hex'), given)) matched ??= secretId;
    }
    return matched;
  }

  /**
   * `match` for a postback from an address blocked for failed authentications: the id of the live
   * secret of `operatorId` that made `signature`, when that secret verified from `address` within
   * `fromAddressSeconds` (in memory), so the block is waived for it; undefined otherwise, with no
   * HMAC computed when no secret of the operator verified from there.
   */
  verifiedFrom(address: string, operatorId: string, signed: string, signature: string): string | undefined {
    const ids = this.#fromAddress?.get(`${address}\n${operatorId}`);
    if (!ids) return undefined;
    const matched = this.match(operatorId, signed, signature);
    return matched !== undefined && ids.includes(matched) ? matched : undefined;
  }

  /**
   * Takes secret `secretId`'s match of a postback at `nowMs`: its last use is recorded and, with
   * `address`, that it verified from there (verifiedFrom).
   */
  accept(operatorId: string, secretId: string, nowMs: number, address?: string): void {
    this.#touch(operatorId, secretId, nowMs);
    if (address !== undefined && this.#fromAddress) {
      const slot = `${address}\n${operatorId}`;
      const ids = this.#fromAddress.get(slot) ?? [];
      // Set again either way: each verification restarts the window.
      this.#fromAddress.set(slot, ids.includes(secretId) ? ids : [...ids, secretId]);
    }
  }

  /** Records when a secret was last used: at most once a minute per secret and process, never awaited. */
  #touch(operatorId: string, secretId: string, nowMs: number): void {
    const slot = `${operatorId}:${secretId}`;
    const last = this.#touched.get(slot);
    if (last !== undefined && nowMs - last < TOUCH_EVERY_MS) return;
    this.#touched.set(slot, nowMs);
    this.store.touch(operatorId, secretId, new Date(nowMs)).catch(() => {
      // Bookkeeping only: a lost last-used time never fails a postback.
    });
  }
}
