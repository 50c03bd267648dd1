/**
 * Reported impressions (routes/impression.ts) wait in memory and are written to Redis about once a
 * second (impression-writes.ts), so /v1/impression answers without waiting on Redis and reports
 * made while Redis is away are counted when it is back. Redis decides what counts: once per
 * visitor, operator, widget class and UTC day across every API process. On the request path only
 * the cheap checks run: bots are left out (isbot, remembered per user agent) and a visitor's
 * operators already queued or written from this process are skipped (impression-gate.ts), so a
 * reload sends Redis nothing. The queue is bounded (MAX_PENDING): beyond it reports are dropped,
 * logged and counted (predictwire_impressions_dropped_total).
 *
 * The queue is a SpillingQueue: a failed write keeps its batch for the next flush (writing a batch
 * again counts nothing twice), and stop() spills what Redis did not take to a file in the data
 * folder, which the next API process to start there writes.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Logger } from '../runtime/log.js';
import { isBot } from './bot-filter.js';
import { ImpressionGate } from './impression-gate.js';
import type { ImpressionTarget } from './impression-links.js';
import {
  impressionOf,
  isNoScript,
  loadImpressionScript,
  writeImpressions,
  type Impression,
} from './impression-writes.js';
import { SpillingQueue } from './spilling-queue.js';

// Reports waiting for Redis: a minute or more of a busy process's new visitors (a Redis failover
// takes seconds), some tens of MB at most.
const MAX_PENDING = 200_000;
// Impressions per pipeline.
const BATCH = 1_000;

/** A spilled impression, checked on replay: the file is ours, but a disk can hold anything. */
const SpilledImpression = z.object({
  visitor: z.string(),
  widget: z.enum(['broad', 'event-specific']),
  operatorIds: z.array(z.string()).min(1),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  hour: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}$/),
  advertiserId: z.string().optional(),
  country: z.string().min(1).max(8),
});

/**
 * Writes `batch` through the counting script, loading it first when this connection may not have
 * it (at start, and again once after a NOSCRIPT: Redis restarted or failed over since).
 */
function scriptWriter(redis: Redis): (batch: Impression[]) => Promise<void> {
  let loaded = false;
  return async (batch) => {
    for (let attempt = 0; ; attempt++) {
      if (!loaded) {
        await loadImpressionScript(redis);
        loaded = true;
      }
      try {
        return await writeImpressions(redis, batch);
      } catch (err) {
        loaded = false;
        if (!isNoScript(err) || attempt > 0) throw err;
      }
    }
  };
}

export class ImpressionCounter {
  readonly #gate = new ImpressionGate();
  readonly #bots = new LRUCache<string, boolean>({ max: 10_000 });
  readonly #queue: SpillingQueue<Impression>;
  #dropped = 0;

  /** `redis`: a fail-fast connection (a flush must not wait for a reconnect); `spillDir`: see above. */
  constructor(
    redis: Redis,
    private readonly log: Logger,
    flushMs = 1_000,
    spillDir?: string,
  ) {
    this.#queue = new SpillingQueue<Impression>(redis, log, {
      kind: 'impressions',
      schema: SpilledImpression,
      write: scriptWriter(redis),
      max: MAX_PENDING,
      batch: BATCH,
      spillDir,
      flushMs,
      onDropped: (n) => (this.#dropped += n),
      // What an earlier process queued counts as queued here: its visitors are not queued twice.
      onReplay: (replayed) => {
        for (const imp of replayed) this.#gate.firstViews(imp.visitor, imp.widget, imp.operatorIds, imp.day);
      },
    });
  }

  start(): void {
    this.#queue.start();
  }

  /** Impressions waiting for Redis. */
  get size(): number {
    return this.#queue.size;
  }

  /** Impressions dropped since start: the queue was full, or they could not be kept at stop. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Queues the impression `visitor` reported for `target` at `now` (synchronous, in memory),
   * unless `userAgent` is a bot's or this process already queued all of its operators today.
   */
  record(
    target: Pick<ImpressionTarget, 'widget' | 'operatorIds' | 'advertiserId' | 'country'>,
    visitor: string,
    userAgent: string | undefined,
    now: Date,
  ): void {
    if (this.#isBot(userAgent)) return;
    const imp = impressionOf(target, visitor, now);
    const fresh = this.#gate.firstViews(visitor, imp.widget, imp.operatorIds, imp.day);
    if (fresh.length === 0) return;
    if (this.#queue.add(fresh.length === imp.operatorIds.length ? imp : { ...imp, operatorIds: fresh })) return;
    this.#dropped++;
    if (this.#dropped === 1 || this.#dropped % 1000 === 0)
      this.log.error({ dropped: this.#dropped, max: MAX_PENDING }, 'impression queue full; impressions dropped');
  }

  #isBot(userAgent: string | undefined): boolean {
    if (userAgent === undefined) return true;
    let bot = this.#bots.get(userAgent);
    if (bot === undefined) this.#bots.set(userAgent, (bot = isBot(userAgent)));
    return bot;
  }

  /** Writes pending impressions to Redis; a batch that fails stays queued for the next attempt. */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /** Stops the timer and writes what is pending (if Redis answers); spills the rest to a file. */
  stop(): Promise<void> {
    return this.#queue.stop();
  }

  /** Spills what is pending, now and synchronously (see SpillingQueue.abandon). */
  abandon(): void {
    this.#queue.abandon();
  }
}
