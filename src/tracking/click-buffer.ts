/**
 * Clicks wait in memory and are written to Redis about once a second, so /v1/click redirects
 * without waiting on Redis and clicks made while Redis is away are written when it is back.
 * The buffer is bounded (CLICK_BUFFER_MAX): beyond it clicks are dropped and counted. Before
 * buffering, a click already seen here (same visitor, operator and day) is skipped, and a visitor
 * counts for at most CLICK_MAX_PER_VISITOR_DAY operators a day on this process.
 *
 * Clicks still pending when the process stops (Redis away) are spilled to a file in the data folder
 * (spill-file.ts) and replayed by the next API process to start there; without a data folder, or
 * when the file cannot be written, they are logged and counted as dropped. Replaying is safe even
 * twice: a click is a visitor added to a HyperLogLog, and a click id's attribution is written with
 * the same value and absolute expiry.
 *
 * A click buffered here keeps its click id; the visitor's repeats of it (same operator and day) are
 * given the same id, so the operator learns one id per counted click.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Logger } from '../runtime/log.js';
import { clickBufferDropped, clickBufferSize } from '../metrics/http.js';
import { systemClock, type Clock } from '../model/clock.js';
import { DEFAULT_ATTRIBUTION_MS, writeClicks, type Click } from './click-counter.js';
import { SpillingQueue } from './spilling-queue.js';

/** A spilled click, checked on replay: the file is ours, but a disk can hold anything. */
const SpilledClick = z.object({
  operatorId: z.string(),
  widget: z.string(),
  country: z.string().optional(),
  visitor: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  advertiserId: z.string().optional(),
  hour: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}$/)
    .optional(),
  // Clicks spilled before click ids have none of these.
  id: z.string().optional(),
  placement: z.string().optional(),
  jurisdiction: z.string().optional(),
  atMs: z.number().int().optional(),
});

export type ClickOutcome = 'buffered' | 'duplicate' | 'capped' | 'dropped';

export interface ClickBufferOptions {
  max: number;
  maxPerVisitorDay: number;
  flushMs?: number;
  /** Clicks written per transaction. */
  batch?: number;
  /** Where clicks not written at stop are spilled, and replayed from at start (none: dropped, logged). */
  spillDir?: string;
  /** How long a click id resolves after its click (CLICK_ATTRIBUTION_DAYS). */
  attributionMs?: number;
  now?: Clock;
}

export class ClickBuffer {
  /** The clicks waiting for Redis: written, retried, spilled and replayed as any spilling queue. */
  readonly #queue: SpillingQueue<Click>;
  // Both made at the first click: lru-cache allocates every slot up front (4.5 MB and 40 ms here),
  // which most API processes, serving widgets and no click, would pay at every start.
  #seenSlots?: LRUCache<string, string>;
  #perVisitorSlots?: LRUCache<string, number>;
  /** `visitor|operator|day` already buffered here → the click id it was given ('' for none). */
  get #seen(): LRUCache<string, string> {
    return (this.#seenSlots ??= new LRUCache({ max: 200_000 }));
  }
  /** `visitor|day` → operators counted for that visitor. */
  get #perVisitor(): LRUCache<string, number> {
    return (this.#perVisitorSlots ??= new LRUCache({ max: 100_000 }));
  }
  #dropped = 0;

  /** `redis`: a fail-fast connection (a flush must not wait for a reconnect). */
  constructor(
    redis: Redis,
    private readonly log: Logger,
    private readonly opts: ClickBufferOptions,
  ) {
    const attributionMs = opts.attributionMs ?? DEFAULT_ATTRIBUTION_MS;
    const now = opts.now ?? systemClock;
    this.#queue = new SpillingQueue<Click>(redis, log, {
      kind: 'clicks',
      schema: SpilledClick as z.ZodType<Click>,
      max: opts.max,
      batch: opts.batch ?? 2_000,
      spillDir: opts.spillDir,
      flushMs: opts.flushMs,
      onSize: (n) => clickBufferSize.set(n),
      onDropped: (n) => {
        this.#dropped += n;
        clickBufferDropped.inc(n);
      },
      // A replayed click is a click seen here: the visitor's repeat keeps its id and counts nothing.
      onReplay: (clicks) => {
        for (const c of clicks) this.#seen.set(`${c.visitor}|${c.operatorId}|${c.day}`, c.id ?? '');
      },
      write: async (batch) => void (await writeClicks(redis, batch, attributionMs, now())),
    });
  }

  start(): void {
    this.#queue.start();
  }

  get size(): number {
    return this.#queue.size;
  }

  /** Clicks dropped since start: the buffer full, or neither written nor spilled at stop. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Queues one click (synchronous, in memory). A duplicate's `id` becomes the one its first click
   * was given (none when that had none).
   */
  add(click: Click): ClickOutcome {
    const seenKey = `${click.visitor}|${click.operatorId}|${click.day}`;
    const seen = this.#seen.get(seenKey);
    if (seen !== undefined) {
      click.id = seen || undefined;
      return 'duplicate';
    }
    const visitorKey = `${click.visitor}|${click.day}`;
    const counted = this.#perVisitor.get(visitorKey) ?? 0;
    if (counted >= this.opts.maxPerVisitorDay) return 'capped';
    if (!this.#queue.add(click)) {
      this.#dropped++;
      clickBufferDropped.inc();
      if (this.#dropped === 1 || this.#dropped % 1000 === 0)
        this.log.error({ dropped: this.#dropped, max: this.opts.max }, 'click buffer full; clicks dropped');
      return 'dropped';
    }
    this.#seen.set(seenKey, click.id ?? '');
    this.#perVisitor.set(visitorKey, counted + 1);
    return 'buffered';
  }

  /** Writes pending clicks to Redis; on failure they stay queued for the next attempt. */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /** Stops the timer and writes what is pending (if Redis answers); spills the rest to a file. */
  stop(): Promise<void> {
    return this.#queue.stop();
  }

  /**
   * Spills what is pending, now and synchronously (the stop's last step, and all a process forced
   * to exit has time for). What it cannot spill is dropped, counted and logged with its exact
   * number, and never written afterwards: a reconnect after this finds nothing to write.
   */
  abandon(): void {
    this.#queue.abandon();
  }
}
