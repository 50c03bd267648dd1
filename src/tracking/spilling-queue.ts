/**
 * A bounded in-memory queue of items waiting to be written to Redis: written in batches about once
 * a second and at once when the connection is back, a failed batch kept for the next attempt, and
 * what is still pending at stop spilled to a file in the data folder (spill-file.ts), which the next
 * process to start there claims and writes first. `write` must be safe to repeat for a batch (a
 * batch that failed half way is written again whole).
 *
 * Clicks (click-buffer.ts, which deduplicates and caps what it adds), impressions
 * (impression-counter.ts, which skips what this process already queued) and postbacks
 * (postback-buffer.ts) use it.
 */
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { Logger } from '../runtime/log.js';
import { claimSpilled, Replay, settlePending } from './spill-file.js';

export interface SpillingQueueOptions<T> {
  /** What the items are, for logs and spill file names. */
  kind: 'clicks' | 'impressions' | 'postbacks';
  /** Checks a spilled item on replay: the file is ours, but a disk can hold anything. */
  schema: z.ZodType<T>;
  /** Writes one batch. @throws to keep the batch for the next attempt. */
  write(batch: T[]): Promise<void>;
  /** Most items held; `add` refuses beyond. */
  max: number;
  batch: number;
  /** Where pending items are spilled at stop and replayed from at start (none: dropped, logged). */
  spillDir?: string;
  flushMs?: number;
  /** Hears the queue's length after each change (a gauge). */
  onSize?: (size: number) => void;
  /** Hears items dropped at stop (nowhere to spill them). */
  onDropped?: (count: number) => void;
  /** Hears the items replayed from an earlier process's spill files, before they are written. */
  onReplay?: (items: readonly T[]) => void;
}

export class SpillingQueue<T> {
  #pending: T[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  readonly #replay = new Replay();

  /** `redis`: a fail-fast connection (a flush must not wait for a reconnect). */
  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly opts: SpillingQueueOptions<T>,
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

  /** Queues one item; false when the queue is full. */
  add(item: T): boolean {
    if (this.#pending.length >= this.opts.max) return false;
    this.#pending.push(item);
    this.opts.onSize?.(this.#pending.length);
    return true;
  }

  /** Writes what is pending; on failure it stays queued for the next attempt. */
  async flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#pending.length === 0 || this.redis.status !== 'ready') return;
    this.#flushing = (async () => {
      try {
        while (this.#pending.length > 0) {
          const batch = this.#pending.slice(0, this.opts.batch);
          await this.opts.write(batch);
          // Only now are they safe; new items were appended behind them meanwhile.
          this.#pending.splice(0, batch.length);
          this.opts.onSize?.(this.#pending.length);
          this.#replay.written(batch.length);
        }
      } catch (err) {
        this.log.warn(
          { err: (err as Error).message, pending: this.#pending.length },
          `${this.opts.kind} not written yet; will retry`,
        );
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
   * to exit has time for); what cannot be spilled is dropped, counted and logged, and never
   * written afterwards.
   */
  abandon(): void {
    clearInterval(this.#timer);
    const left = this.#pending;
    this.#pending = [];
    this.opts.onSize?.(0);
    // Spilled: the files this process was replaying are no longer needed (their items are in the new one).
    if (
      settlePending(this.opts.kind, left, this.opts.spillDir, this.log, (n) => this.opts.onDropped?.(n)) &&
      left.length > 0
    )
      this.#replay.spilled();
  }

  /** Puts items spilled by an earlier process at the head of the queue. */
  #replaySpilled(): void {
    if (!this.opts.spillDir) return;
    const claimed = claimSpilled(this.opts.spillDir, this.opts.kind);
    if (claimed.files.length === 0) return;
    const items = claimed.items.flatMap((item) => {
      const parsed = this.opts.schema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    this.opts.onReplay?.(items);
    // Not unshift(...items): a spill holds up to `max` items, past what a call's arguments may hold.
    this.#pending = items.concat(this.#pending);
    this.opts.onSize?.(this.#pending.length);
    const skipped = claimed.items.length - items.length + claimed.unreadable;
    this.log.info(
      { [this.opts.kind]: items.length, skipped, files: claimed.files.length },
      `replaying ${this.opts.kind} spilled by an earlier stop`,
    );
    this.#replay.begin(claimed, items.length);
  }
}
