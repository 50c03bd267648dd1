/**
 * The API process's in-memory copy of the ranking signals that live in Redis: each operator's OI
 * acceleration (from the OI history) and clicks and impressions over the CTR window. Reloaded when
 * the metrics snapshot changes and on a timer (clicks arrive between snapshots), never per request.
 * `version` moves only when the signals change, so cached bodies keyed on it stay valid otherwise.
 */
import type { Redis } from 'ioredis';
import { oiAcceleration, populationCtr } from '../domain/ranking.js';
import type { Logger } from '../runtime/log.js';
import { readCtrCounts } from './ctr-counts.js';
import { readOiHistory } from './oi-history.js';
import type { Clock } from '../model/clock.js';

export interface OperatorSignals {
  /** null: unknown (no usable open-interest history), ranked as neutral. */
  oiAcceleration: number | null;
  clicks: number;
  impressions: number;
}

export interface RankingSignals {
  version: number;
  byOperator: ReadonlyMap<string, OperatorSignals>;
  /** Clicks / impressions over every operator in the window (the CTR prior's mean). */
  ctrMean: number;
}

export interface RankingInputsOptions {
  operatorIds: readonly string[];
  oiPeriodMs: number;
  ctrWindowDays: number;
  refreshMs: number;
  now: Clock;
}

export class RankingInputs {
  #current: RankingSignals = { version: 0, byOperator: new Map(), ctrMean: 0 };
  #fingerprint = '';
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly opts: RankingInputsOptions,
  ) {}

  /** The signals as last loaded (all zero before the first load). */
  current(): RankingSignals {
    return this.#current;
  }

  /** Loads once, then reloads every `refreshMs`. A failed load is logged; the old signals stay. */
  async start(): Promise<void> {
    await this.reload();
    this.#timer ??= setInterval(() => void this.reload(), this.opts.refreshMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads the signals from Redis; concurrent calls coalesce into one more load after the current. */
  reload(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#load()
      .catch((err: unknown) =>
        this.log.warn({ err: (err as Error).message }, 'ranking signals not reloaded; keeping the previous ones'),
      )
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          void this.reload();
        }
      });
    return this.#running;
  }

  async #load(): Promise<void> {
    const now = new Date(this.opts.now());
    const ids = this.opts.operatorIds;
    const [history, counts] = await Promise.all([
      readOiHistory(this.redis, ids, now.getTime() - 3 * this.opts.oiPeriodMs),
      readCtrCounts(this.redis, ids, now, this.opts.ctrWindowDays),
    ]);
    const byOperator = new Map<string, OperatorSignals>();
    for (const id of ids) {
      const c = counts.get(id) ?? { clicks: 0, impressions: 0 };
      byOperator.set(id, { oiAcceleration: oiAcceleration(history.get(id) ?? [], this.opts.oiPeriodMs), ...c });
    }
    const ctrMean = populationCtr(byOperator.values());
    const fingerprint = JSON.stringify([...byOperator, ctrMean]);
    if (fingerprint === this.#fingerprint) return;
    this.#fingerprint = fingerprint;
    this.#current = { version: this.#current.version + 1, byOperator, ctrMean };
  }
}
