/**
 * Impression counters: each served widget payload counts one impression per operator in it, per
 * UTC day, in Redis. Counts are batched in memory and flushed about once a second, so serving a
 * widget never waits on Redis; a failed flush keeps its counts for the next one; stop() flushes.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { COUNTER_RETENTION_SECONDS, utcDay } from './click-counter.js';

export const impressionsKey = (operatorId: string, day: string) => `pw:impressions:${operatorId}:${day}`;

// Far above what one second can produce (operators x widget classes x days); a guard, not a limit.
const MAX_PENDING_KEYS = 10_000;

export class ImpressionCounter {
  /** `${operatorId}|${widget}|${day}` → count not yet written. */
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly flushMs = 1_000,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.#timer.unref();
  }

  /** Counts one impression for each operator (synchronous, in memory). */
  count(operatorIds: readonly string[], widget: string, now: Date): void {
    const day = utcDay(now);
    for (const id of operatorIds) {
      const k = `${id}|${widget}|${day}`;
      if (!this.#pending.has(k) && this.#pending.size >= MAX_PENDING_KEYS) continue;
      this.#pending.set(k, (this.#pending.get(k) ?? 0) + 1);
    }
  }

  /** Writes pending counts to Redis in one pipeline. */
  async flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    const pipe = this.redis.multi();
    for (const [k, n] of batch) {
      const [id, widget, day] = k.split('|') as [string, string, string];
      const key = impressionsKey(id, day);
      pipe.hincrby(key, 'total', n).hincrby(key, `widget:${widget}`, n).expire(key, COUNTER_RETENTION_SECONDS);
    }
    this.#flushing = pipe
      .exec()
      .then(() => undefined)
      .catch((err: unknown) => {
        // Put the counts back so the next flush retries them.
        for (const [k, n] of batch) this.#pending.set(k, (this.#pending.get(k) ?? 0) + n);
        this.log.warn({ err: (err as Error).message }, 'impression counts not flushed; will retry');
      })
      .finally(() => {
        this.#flushing = undefined;
      });
    return this.#flushing;
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
  }
}
