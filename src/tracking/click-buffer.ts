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
import type { Logger } from '../log.js';
import { clickBufferDropped, clickBufferSize } from '../metrics/http.js';
import { systemClock, type Clock } from '../model/clock.js';
import { DEFAULT_ATTRIBUTION_MS, writeClicks, type Click } from './click-counter.js';
import { claimSpilled, Replay, settlePending } from './spill-file.js';

/** A spilled click, checked on replay: the file is ours, but a disk can hold anything. */
const SpilledClick = z.object({
  operatorId: z.string(),
  widget: z.string(),
  country: z.string().optional(),
  visitor: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  advertiserId: z.string().optional(),
  hour: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}$/).optional(),
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
  #pending: Click[] = [];
  /** `visitor|operator|day` already buffered here → the click id it was given ('' for none). */
  readonly #seen = new LRUCache<string, string>({ max: 200_000 });
  /** `visitor|day` → operators counted for that visitor. */
  readonly #perVisitor = new LRUCache<string, number>({ max: 100_000 });
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #dropped = 0;
  /** Spilled files being replayed from the head of #pending. */
  readonly #replay = new Replay();

  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly opts: ClickBufferOptions,
  ) {}

  start(): void {
    this.#replaySpilled();
    this.#timer ??= setInterval(() => void this.flush(), this.opts.flushMs ?? 1_000);
    this.#timer.unref();
    // Back from an outage: write what waited at once.
    this.redis.on('ready', () => void this.flush());
  }

  get size(): number {
    return this.#pending.length;
  }

  /** Clicks dropped since start because the buffer was full. */
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
    if (this.#pending.length >= this.opts.max) {
      this.#dropped++;
      clickBufferDropped.inc();
      if (this.#dropped === 1 || this.#dropped % 1000 === 0) this.log.error({ dropped: this.#dropped, max: this.opts.max }, 'click buffer full; clicks dropped');
      return 'dropped';
    }
    this.#seen.set(seenKey, click.id ?? '');
    this.#perVisitor.set(visitorKey, counted + 1);
    this.#pending.push(click);
    clickBufferSize.set(this.#pending.length);
    return 'buffered';
  }

  /** Writes pending clicks to Redis; on failure they stay queued for the next attempt. */
  async flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#pending.length === 0 || this.redis.status !== 'ready') return;
    this.#flushing = (async () => {
      try {
        while (this.#pending.length > 0) {
          const batch = this.#pending.slice(0, this.opts.batch ?? 2_000);
          await writeClicks(this.redis, batch, this.opts.attributionMs ?? DEFAULT_ATTRIBUTION_MS, (this.opts.now ?? systemClock)());
          // Only now are they safe; new clicks were appended behind them meanwhile.
          this.#pending.splice(0, batch.length);
          clickBufferSize.set(this.#pending.length);
          this.#replay.written(batch.length);
        }
      } catch (err) {
        this.log.warn({ err: (err as Error).message, pending: this.#pending.length }, 'clicks not written yet; will retry');
      } finally {
        this.#flushing = undefined;
      }
    })();
    return this.#flushing;
  }

  /** Stops the timer and writes what is pending (if Redis answers); spills the rest to a file. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
    this.abandon();
  }

  /**
   * Spills what is pending, now and synchronously (the stop's last step, and all a process forced
   * to exit has time for). What it cannot spill is dropped, counted and logged with its exact
   * number, and never written afterwards: a reconnect after this finds nothing to write.
   */
  abandon(): void {
    clearInterval(this.#timer);
    const left = this.#pending;
    this.#pending = [];
    clickBufferSize.set(0);
    const dropped = (n: number) => {
      this.#dropped += n;
      clickBufferDropped.inc(n);
    };
    // Spilled: the files this process was replaying are no longer needed (their clicks are in the new one).
    if (settlePending('clicks', left, this.opts.spillDir, this.log, dropped) && left.length > 0) this.#replay.spilled();
  }

  /** Puts clicks spilled by an earlier process at the head of the queue. */
  #replaySpilled(): void {
    if (!this.opts.spillDir) return;
    const claimed = claimSpilled(this.opts.spillDir, 'clicks');
    if (claimed.files.length === 0) return;
    const clicks = claimed.items.flatMap((item) => {
      const parsed = SpilledClick.safeParse(item);
      return parsed.success ? [parsed.data as Click] : [];
    });
    const skipped = claimed.items.length - clicks.length + claimed.unreadable;
    for (const c of clicks) this.#seen.set(`${c.visitor}|${c.operatorId}|${c.day}`, c.id ?? '');
    this.#pending.unshift(...clicks);
    clickBufferSize.set(this.#pending.length);
    this.log.info({ clicks: clicks.length, skipped, files: claimed.files.length }, 'replaying clicks spilled by an earlier stop');
    this.#replay.begin(claimed, clicks.length);
  }
}
