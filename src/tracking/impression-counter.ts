/**
 * Impression counters: each viewable impression reported (routes/impression.ts) counts one per
 * operator it lists, per UTC day, in Redis. Counts are batched in memory and flushed about once a second, so serving a
 * widget never waits on Redis; a failed flush keeps its counts for the next one; stop() flushes,
 * and spills what Redis did not take to a file in the data folder (spill-file.ts), which the next
 * API process to start there counts. A spilled file is claimed by one process, so it is counted once.
 *
 * A report only records what was seen (`record`): the bot check and the per-day keys are worked
 * out when the batch is flushed, off the request path. A widget built with an advertiser's
 * attribution also counts in that advertiser's report (report-counters.ts), per hour and country.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { LRUCache } from 'lru-cache';
import { isBot } from './bot-filter.js';
import { COUNTER_RETENTION_SECONDS, utcDay } from './click-counter.js';
import { periodOf, queueAttributedImpressions } from './report-counters.js';
import { claimSpilled, spill, type Claimed } from './spill-file.js';

export const impressionsKey = (operatorId: string, day: string) => `pw:impressions:${operatorId}:${day}`;

// Far above what one second can produce (operators x widget classes x days); a guard, not a limit.
const MAX_PENDING_KEYS = 10_000;
// Reports waiting for the next flush; over this many (a flood within one second) they are
// counted at once rather than held.
const MAX_RECORDED = 100_000;

interface Served {
  widget: string;
  n: number;
  advertiserId: string | undefined;
  country: string;
}

/** A pending key of an attributed count has five parts, a plain one three. */
const ATTRIBUTED_PARTS = 5;

export class ImpressionCounter {
  /**
   * `${operatorId}|${widget}|${day}` → count not yet written; attributed ones (for reports) as
   * `${advertiserId}|${operatorId}|${widget}|${country}|${hour}`.
   */
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  /**
   * Reports not yet counted, per user agent, then per operator list (compared by identity): the
   * widget class, how many, and the advertiser and viewer jurisdiction the widget was built for.
   */
  #recorded = new Map<string | undefined, Map<readonly string[], Served>>();
  #recordedCount = 0;
  readonly #bots = new LRUCache<string, boolean>({ max: 10_000 });
  #flushing: Promise<void> | undefined;
  /** Spilled files whose counts were merged into #pending; deleted once a flush wrote them. */
  #replaying: Claimed | undefined;

  /** `redis`: a fail-fast connection (a flush must not wait for a reconnect); `spillDir`: see above. */
  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly flushMs = 1_000,
    private readonly spillDir?: string,
  ) {}

  start(): void {
    this.#replay();
    this.#timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.#timer.unref();
  }

  /**
   * Notes that a widget showing `operatorIds` was seen by `userAgent`: the cheapest possible step
   * on the request path. Bots (isbot) are left out when the batch is counted.
   */
  record(operatorIds: readonly string[], widget: string, userAgent: string | undefined, advertiserId?: string, country = 'ZZ'): void {
    if (operatorIds.length === 0) return;
    let byList = this.#recorded.get(userAgent);
    if (!byList) this.#recorded.set(userAgent, (byList = new Map()));
    const served = byList.get(operatorIds);
    if (served) served.n++;
    else byList.set(operatorIds, { widget, n: 1, advertiserId, country });
    if (++this.#recordedCount >= MAX_RECORDED) this.#countRecorded(new Date());
  }

  #countRecorded(now: Date): void {
    const recorded = this.#recorded;
    this.#recorded = new Map();
    this.#recordedCount = 0;
    for (const [ua, byList] of recorded) {
      let bot = ua === undefined ? true : this.#bots.get(ua);
      if (bot === undefined) this.#bots.set(ua!, (bot = isBot(ua)));
      if (!bot) {
        for (const [ids, { widget, n, advertiserId, country }] of byList) {
          this.count(ids, widget, now, n);
          if (advertiserId) this.#countAttributed(advertiserId, ids, widget, country.slice(0, 2), periodOf(now, 'hour'), n);
        }
      }
    }
  }

  #countAttributed(advertiserId: string, operatorIds: readonly string[], widget: string, country: string, hour: string, n: number): void {
    for (const id of operatorIds) this.#add(`${advertiserId}|${id}|${widget}|${country}|${hour}`, n);
  }

  #add(k: string, n: number): void {
    if (!this.#pending.has(k) && this.#pending.size >= MAX_PENDING_KEYS) return;
    this.#pending.set(k, (this.#pending.get(k) ?? 0) + n);
  }

  /** Counts `n` impressions (one by default) for each operator (synchronous, in memory). */
  count(operatorIds: readonly string[], widget: string, now: Date, n = 1): void {
    const day = utcDay(now);
    for (const id of operatorIds) this.#add(`${id}|${widget}|${day}`, n);
  }

  /** Writes pending counts to Redis in one pipeline. */
  async flush(): Promise<void> {
    this.#countRecorded(new Date());
    if (this.#flushing) return this.#flushing;
    if (this.#pending.size === 0 || this.redis.status !== 'ready') return;
    const batch = this.#pending;
    const replayed = this.#replaying;
    this.#replaying = undefined;
    this.#pending = new Map();
    const pipe = this.redis.multi();
    for (const [k, n] of batch) {
      const parts = k.split('|');
      if (parts.length === ATTRIBUTED_PARTS) {
        const [advertiserId, operatorId, widget, country, hour] = parts as [string, string, string, string, string];
        queueAttributedImpressions(pipe, { advertiserId, operatorId, widget, country, hour }, n);
        continue;
      }
      const [id, widget, day] = parts as [string, string, string];
      const key = impressionsKey(id, day);
      pipe.hincrby(key, 'total', n).hincrby(key, `widget:${widget}`, n).expire(key, COUNTER_RETENTION_SECONDS);
    }
    this.#flushing = pipe
      .exec()
      .then(() => replayed?.done())
      .catch((err: unknown) => {
        // Put the counts back so the next flush retries them.
        for (const [k, n] of batch) this.#pending.set(k, (this.#pending.get(k) ?? 0) + n);
        this.#replaying ??= replayed;
        this.log.warn({ err: (err as Error).message }, 'impression counts not flushed; will retry');
      })
      .finally(() => {
        this.#flushing = undefined;
      });
    return this.#flushing;
  }

  /** Stops the timer and writes what is pending; spills what Redis did not take. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
    if (this.#pending.size === 0) return;
    const counts = [...this.#pending].map(([k, n]) => ({ k, n }));
    const total = counts.reduce((sum, c) => sum + c.n, 0);
    if (this.spillDir) {
      try {
        const file = spill(this.spillDir, 'impressions', counts);
        this.#pending.clear();
        this.#replaying?.done(); // their counts are in the new file
        this.log.warn({ impressions: total, file }, 'impressions not written to Redis at stop; spilled to a file, counted at the next start');
        return;
      } catch (err) {
        this.log.error({ err: (err as Error).message, dir: this.spillDir }, 'impressions could not be spilled');
      }
    }
    this.log.error({ dropped: total }, 'impressions not written to Redis at stop; dropped');
  }

  /** Adds the counts an earlier process spilled to the next flush. */
  #replay(): void {
    if (!this.spillDir) return;
    const claimed = claimSpilled(this.spillDir, 'impressions');
    if (claimed.files.length === 0) return;
    for (const item of claimed.items) {
      const { k, n } = (item ?? {}) as { k?: unknown; n?: unknown };
      const parts = typeof k === 'string' ? k.split('|').length : 0;
      if ((parts === 3 || parts === ATTRIBUTED_PARTS) && Number.isSafeInteger(n) && (n as number) > 0) {
        this.#pending.set(k as string, (this.#pending.get(k as string) ?? 0) + (n as number));
      }
    }
    this.#replaying = claimed;
    this.log.info({ files: claimed.files.length }, 'counting impressions spilled by an earlier stop');
  }
}
