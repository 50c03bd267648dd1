/**
 * Keys over a rate limit, held in memory on every API process so that refusing them, and letting
 * everyone else through, costs no Redis round trip. A process that finds a key over its limit
 * blocks it here and tells the others on BLOCKS_CHANNEL; each then refuses the key until the
 * block ends. A notice whose end has passed (`until` 0) lifts a block early, on every process
 * (the advertiser CLI sends one: auth-failure-blocks.ts).
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../model/clock.js';

export const BLOCKS_CHANNEL = 'pw:limits:blocked';

interface BlockNotice {
  name: string;
  key: string;
  until: number;
}

export class LimitBlocks {
  /**
   * `${name}\n${key}` → epoch ms the block ends; purged then, so `any` turns false again. Made at
   * the first block: lru-cache allocates every slot (and its TTL's) up front, 3 MB and 35 ms here.
   */
  #until?: LRUCache<string, number>;

  constructor(
    private readonly publisher: Redis,
    /** Told of every block lifted early, so the limiter forgets the key's count too. */
    private readonly onLift: (name: string, key: string) => void = () => {},
    private readonly now: Clock = systemClock,
  ) {}

  /** Follows the other processes' blocks on `subscriber` (a connection in subscriber mode). */
  async start(subscriber: Redis): Promise<void> {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== BLOCKS_CHANNEL) return;
      try {
        const notice = JSON.parse(message) as BlockNotice;
        if (typeof notice.name === 'string' && typeof notice.key === 'string' && Number.isFinite(notice.until))
          this.#set(notice);
      } catch {
        // Not ours (we publish only JSON): nothing to block.
      }
    });
    await subscriber.subscribe(BLOCKS_CHANNEL);
  }

  /** Whether any key is blocked now: when none is, callers need not even work out their key. */
  get any(): boolean {
    return (this.#until?.size ?? 0) > 0;
  }

  /** Milliseconds left of `key`'s block under `name`, or 0. */
  remaining(name: string, key: string, nowMs: number): number {
    const until = this.#until?.get(`${name}\n${key}`);
    return until === undefined || until <= nowMs ? 0 : until - nowMs;
  }

  /** Blocks `key` under `name` until `until` (epoch ms) here and on every other process. */
  block(name: string, key: string, until: number): void {
    const notice = { name, key, until };
    this.#set(notice);
    this.publisher.publish(BLOCKS_CHANNEL, JSON.stringify(notice)).catch(() => {
      // Redis away: the others learn of the key when it next reaches them and their limiter refuses it.
    });
  }

  #set({ name, key, until }: BlockNotice): void {
    const ttl = until - this.now();
    if (ttl > 0) {
      this.#until ??= new LRUCache({ max: 100_000, ttl: 3_600_000, ttlAutopurge: true });
      return void this.#until.set(`${name}\n${key}`, until, { ttl });
    }
    this.#until?.delete(`${name}\n${key}`);
    this.onLift(name, key);
  }
}
