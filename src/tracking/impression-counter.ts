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
 * A failed write keeps its batch for the next flush; writing a batch again counts nothing twice.
 * stop() flushes and spills what Redis did not take to a file in the data folder (spill-file.ts),
 * which the next API process to start there writes.
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
import { claimSpilled, Replay, settlePending } from './spill-file.js';

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

export class ImpressionCounter {
  #pending: Impression[] = [];
  readonly #gate = new ImpressionGate();
  readonly #bots = new LRUCache<string, boolean>({ max: 10_000 });
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #scriptLoaded = false;
  #dropped = 0;
  /** Spilled files being replayed from the head of #pending. */
  readonly #replay = new Replay();

  /** `redis`: a fail-fast connection (a flush must not wait for a reconnect); `spillDir`: see above. */
  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly flushMs = 1_000,
    private readonly spillDir?: string,
  ) {}

  start(): void {
    this.#replaySpilled();
    this.#timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.#timer.unref();
    // Back from an outage: write what waited at once.
    this.redis.on('ready', () => void this.flush());
  }

  /** Impressions waiting for Redis. */
  get size(): number {
    return this.#pending.length;
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
    if (this.#pending.length >= MAX_PENDING) {
      this.#dropped++;
      if (this.#dropped === 1 || this.#dropped % 1000 === 0)
        this.log.error({ dropped: this.#dropped, max: MAX_PENDING }, 'impression queue full; impressions dropped');
      return;
    }
    this.#pending.push(fresh.length === imp.operatorIds.length ? imp : { ...imp, operatorIds: fresh });
  }

  #isBot(userAgent: string | undefined): boolean {
    if (userAgent === undefined) return true;
    let bot = this.#bots.get(userAgent);
    if (bot === undefined) this.#bots.set(userAgent, (bot = isBot(userAgent)));
    return bot;
  }

  /** Writes pending impressions to Redis; a batch that fails stays queued for the next attempt. */
  async flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#pending.length === 0 || this.redis.status !== 'ready') return;
    this.#flushing = (async () => {
      let reloaded = false;
      try {
        while (this.#pending.length > 0) {
          if (!this.#scriptLoaded) {
            await loadImpressionScript(this.redis);
            this.#scriptLoaded = true;
          }
          const batch = this.#pending.slice(0, BATCH);
          try {
            await writeImpressions(this.redis, batch);
          } catch (err) {
            this.#scriptLoaded = false;
            // Redis restarted or failed over since the script was loaded: load it again, write again.
            if (isNoScript(err) && !reloaded) {
              reloaded = true;
              continue;
            }
            throw err;
          }
          // Only now are they safe; new reports were appended behind them meanwhile.
          this.#pending.splice(0, batch.length);
          this.#replay.written(batch.length);
        }
      } catch (err) {
        this.log.warn(
          { err: (err as Error).message, pending: this.#pending.length },
          'impressions not written yet; will retry',
        );
      } finally {
        this.#flushing = undefined;
      }
    })();
    return this.#flushing;
  }

  /** Stops the timer and writes what is pending (if Redis answers); spills the rest to a file. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
    this.abandon();
  }

  /**
   * Spills what is pending, now and synchronously (the stop's last step, and all a process forced
   * to exit has time for); what it cannot spill is dropped, counted and logged with its exact
   * number, and never written afterwards.
   */
  abandon(): void {
    clearInterval(this.#timer);
    const left = this.#pending;
    this.#pending = [];
    // Spilled: the files this process was replaying are no longer needed (their reports are in the new one).
    if (settlePending('impressions', left, this.spillDir, this.log, (n) => (this.#dropped += n)) && left.length > 0)
      this.#replay.spilled();
  }

  /** Puts impressions spilled by an earlier process at the head of the queue. */
  #replaySpilled(): void {
    if (!this.spillDir) return;
    const claimed = claimSpilled(this.spillDir, 'impressions');
    if (claimed.files.length === 0) return;
    const impressions: Impression[] = claimed.items.flatMap((item) => {
      const parsed = SpilledImpression.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    const skipped = claimed.items.length - impressions.length + claimed.unreadable;
    for (const imp of impressions) this.#gate.firstViews(imp.visitor, imp.widget, imp.operatorIds, imp.day);
    this.#pending = impressions.concat(this.#pending);
    this.log.info(
      { impressions: impressions.length, skipped, files: claimed.files.length },
      'counting impressions spilled by an earlier stop',
    );
    this.#replay.begin(claimed, impressions.length);
  }
}
