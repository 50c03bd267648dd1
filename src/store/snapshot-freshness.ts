/**
 * How fresh each expected snapshot is, held in memory. A refresh that finds nothing new moves only
 * `fetchedAt` in the snapshot's meta (no notice is published), so the API polls the meta of the few
 * expected snapshots every couple of seconds in the background; requests, /readyz and /metrics read
 * the result from memory.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { EXPECTED_SNAPSHOTS, type SnapshotId } from './keys.js';
import type { SnapshotKind } from './schemas.js';
import { readMeta, type SnapshotMeta } from './snapshots.js';
import { type Clock, systemClock } from '../model/clock.js';

export interface FreshnessOptions {
  /** Refresh interval per kind, seconds. */
  refreshSeconds: Record<SnapshotKind, number>;
  /** Missed refreshes after which a snapshot is stale. */
  staleAfterIntervals: number;
  pollMs?: number;
  now?: Clock;
}

export interface SnapshotFreshnessState extends SnapshotId {
  meta: SnapshotMeta | undefined;
  /** Seconds without a successful fetch after which the snapshot is stale. */
  staleAfterSeconds: number;
  /** Seconds since the last successful fetch; undefined before the first one. */
  ageSeconds: number | undefined;
  stale: boolean;
}

/** What a payload built from stale data carries (docs/operations.md, "Stale data"). */
export interface StaleMarker {
  stale: true;
  /** When the data was last fetched successfully from its source. */
  data_fetched_at: string;
}

export type StaleListener = (id: SnapshotId, stale: boolean) => void;

const idOf = (id: SnapshotId) => `${id.kind}:${id.key}`;

export class SnapshotFreshness {
  readonly #meta = new Map<string, SnapshotMeta | undefined>();
  readonly #stale = new Map<string, boolean>();
  readonly #everFresh = new Set<string>();
  /** Snapshots known only from the disk copy: stale until Redis's meta for them is read. */
  readonly #fromDisk = new Set<string>();
  readonly #listeners = new Set<StaleListener>();
  readonly #now: Clock;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly opts: FreshnessOptions,
  ) {
    this.#now = opts.now ?? systemClock;
  }

  /** Reads every meta once, then keeps polling until `stop`. */
  async start(): Promise<void> {
    await this.poll();
    this.#timer = setInterval(() => void this.poll(), this.opts.pollMs ?? 2_000);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Takes the fetch time of a snapshot served from the disk copy; it counts as stale until Redis answers. */
  seedFromDisk(id: SnapshotId, fetchedAt: string): void {
    this.#fromDisk.add(idOf(id));
    this.#meta.set(idOf(id), { version: 0, fetchedAt, failures: 0 });
    this.#stale.set(idOf(id), true);
  }

  /** When the snapshot was last fetched from its source, as last polled. */
  fetchedAt(id: SnapshotId): string | undefined {
    return this.#meta.get(idOf(id))?.fetchedAt;
  }

  /** Called when a snapshot turns stale or fresh again (payload caches rebuild with the flag). */
  onChange(listener: StaleListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Re-reads the meta of every expected snapshot; while Redis is away the last known meta stands. */
  poll(): Promise<void> {
    // One read at a time: while Redis is away, reads would otherwise pile up behind each other.
    this.#inFlight ??= this.#read().finally(() => (this.#inFlight = undefined));
    return this.#inFlight;
  }

  async #read(): Promise<void> {
    await Promise.all(
      EXPECTED_SNAPSHOTS.map(async (id) => {
        try {
          this.#meta.set(idOf(id), await readMeta(this.redis, id.kind, id.key));
          this.#fromDisk.delete(idOf(id));
        } catch {
          // Redis unreachable: /readyz says so; the staleness clock keeps running on what we know.
        }
      }),
    );
    for (const s of this.states()) {
      const before = this.#stale.get(idOf(s));
      this.#stale.set(idOf(s), s.stale);
      if (before !== undefined && before !== s.stale) {
        // The first fetch after start is no news; a stale snapshot, or one recovering, is.
        const news = s.stale || this.#everFresh.has(idOf(s));
        if (news) this.log[s.stale ? 'warn' : 'info']({ kind: s.kind, key: s.key, fetchedAt: s.meta?.fetchedAt ?? null }, s.stale ? 'snapshot is stale' : 'snapshot is fresh again');
        for (const listener of this.#listeners) listener({ kind: s.kind, key: s.key }, s.stale);
      }
      if (!s.stale) this.#everFresh.add(idOf(s));
    }
  }

  /** Every expected snapshot's freshness at this moment. */
  states(): SnapshotFreshnessState[] {
    const now = this.#now();
    return EXPECTED_SNAPSHOTS.map((id) => {
      const meta = this.#meta.get(idOf(id));
      const staleAfterSeconds = this.opts.refreshSeconds[id.kind] * this.opts.staleAfterIntervals;
      const fetchedMs = meta?.fetchedAt ? Date.parse(meta.fetchedAt) : undefined;
      const ageSeconds = fetchedMs === undefined ? undefined : Math.max(0, (now - fetchedMs) / 1000);
      const stale = ageSeconds === undefined || ageSeconds > staleAfterSeconds || this.#fromDisk.has(idOf(id));
      return { ...id, meta, staleAfterSeconds, ageSeconds, stale };
    });
  }

  /**
   * The marker for payloads built from snapshots of `kind` (only the one with `key` when given),
   * as last polled; undefined when they are fresh. A snapshot never fetched has no marker: without
   * data there is no payload to mark.
   */
  staleMarker(kind: SnapshotKind, key?: string): StaleMarker | undefined {
    let oldest: string | undefined;
    for (const id of EXPECTED_SNAPSHOTS) {
      if (id.kind !== kind || (key !== undefined && id.key !== key) || !this.#stale.get(idOf(id))) continue;
      const fetchedAt = this.#meta.get(idOf(id))?.fetchedAt;
      if (fetchedAt && (oldest === undefined || fetchedAt < oldest)) oldest = fetchedAt;
    }
    return oldest === undefined ? undefined : { stale: true, data_fetched_at: oldest };
  }
}
