/**
 * How fresh each expected snapshot is, held in memory. A refresh that finds nothing new moves only
 * `fetchedAt` in the snapshot's meta (no notice is published), so the API polls the meta of the few
 * expected snapshots every couple of seconds in the background; requests, /readyz and /metrics read
 * the result from memory.
 *
 * Ages are measured by this process's clock, never the worker's: a `fetchedAt` stamp counts from
 * the earlier of what it says and when this process first read it, so a worker whose clock runs
 * ahead cannot make frozen data look current (a stamp in the future is clamped to the moment it was
 * seen, and counted). And what Redis forgets (a flush, an eviction, a restart without persistence)
 * is not forgotten here: the last stamp seen stands, and keeps ageing, until Redis has a newer one.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { EXPECTED_SNAPSHOTS, type SnapshotId } from './keys.js';
import type { SnapshotKind } from './schemas.js';
import { readMeta, type SnapshotMeta } from './snapshots.js';
import { type Clock, MAX_CLOCK_SKEW_MS, systemClock } from '../model/clock.js';

export interface FreshnessOptions {
  /** Refresh interval per kind, seconds. */
  refreshSeconds: Record<SnapshotKind, number>;
  /** Missed refreshes after which a snapshot is stale. */
  staleAfterIntervals: number;
  pollMs?: number;
  now?: Clock;
}

export interface SnapshotFreshnessState extends SnapshotId {
  /** The meta last read from Redis (kept when Redis no longer has it). */
  meta: SnapshotMeta | undefined;
  /** When the data was last fetched, by this process's clock (RFC 3339); undefined before the first fetch. */
  fetchedAt: string | undefined;
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

/** A fetch stamp as this process counts it: the stamp, and the time it stands for on our clock. */
interface Fetched {
  stamp: string;
  ms: number;
  iso: string;
}

export class SnapshotFreshness {
  readonly #meta = new Map<string, SnapshotMeta | undefined>();
  /** The last fetch stamp seen per snapshot, aged by our clock. */
  readonly #fetched = new Map<string, Fetched>();
  /** Stamps read from the future (the worker's clock ahead of ours), per kind. */
  readonly #futureStamps = new Map<SnapshotKind, number>();
  /** Snapshots whose last stamp was in the future (one warning per streak). */
  readonly #inFuture = new Set<string>();
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

  /** Takes the fetch time of a snapshot served from the disk copy; it counts as stale until Redis has it. */
  seedFromDisk(id: SnapshotId, fetchedAt: string): void {
    this.#fromDisk.add(idOf(id));
    this.#meta.set(idOf(id), { version: 0, fetchedAt, failures: 0 });
    this.#see(id, fetchedAt);
    this.#stale.set(idOf(id), true);
  }

  /** When the snapshot was last fetched from its source, by our clock, as last polled. */
  fetchedAt(id: SnapshotId): string | undefined {
    return this.#fetched.get(idOf(id))?.iso;
  }

  /** Fetch stamps seen in the future and clamped, per kind, since start. */
  futureStamps(): ReadonlyMap<SnapshotKind, number> {
    return this.#futureStamps;
  }

  /**
   * Records the stamp `fetchedAt` of `id` as seen now: it counts from the earlier of its own time
   * and now. A stamp already seen keeps the time it was given then.
   */
  #see(id: SnapshotId, fetchedAt: string | undefined): void {
    const known = this.#fetched.get(idOf(id));
    if (fetchedAt === undefined || known?.stamp === fetchedAt) return;
    const stampMs = Date.parse(fetchedAt);
    if (Number.isNaN(stampMs)) return;
    const now = this.#now();
    const future = stampMs > now + MAX_CLOCK_SKEW_MS;
    if (future) {
      this.#futureStamps.set(id.kind, (this.#futureStamps.get(id.kind) ?? 0) + 1);
      // Once per streak: a worker whose clock is ahead stamps every refresh so.
      if (!this.#inFuture.has(idOf(id))) {
        this.log.warn(
          { kind: id.kind, key: id.key, fetchedAt, now: new Date(now).toISOString() },
          "snapshot stamped in the future (its writer's clock is ahead): aged from when it was seen",
        );
      }
      this.#inFuture.add(idOf(id));
    } else {
      this.#inFuture.delete(idOf(id));
    }
    const ms = Math.min(stampMs, now);
    this.#fetched.set(idOf(id), { stamp: fetchedAt, ms, iso: ms === stampMs ? fetchedAt : new Date(ms).toISOString() });
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
          const meta = await readMeta(this.redis, id.kind, id.key);
          // Redis forgot the snapshot (flushed, evicted): keep what we knew, ageing, rather than nothing.
          if (meta?.fetchedAt === undefined && this.#fetched.has(idOf(id))) return;
          this.#meta.set(idOf(id), meta);
          this.#see(id, meta?.fetchedAt);
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
        if (news)
          this.log[s.stale ? 'warn' : 'info'](
            { kind: s.kind, key: s.key, fetchedAt: s.fetchedAt ?? null },
            s.stale ? 'snapshot is stale' : 'snapshot is fresh again',
          );
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
      const fetched = this.#fetched.get(idOf(id));
      const ageSeconds = fetched === undefined ? undefined : Math.max(0, (now - fetched.ms) / 1000);
      const stale = ageSeconds === undefined || ageSeconds > staleAfterSeconds || this.#fromDisk.has(idOf(id));
      return { ...id, meta, fetchedAt: fetched?.iso, staleAfterSeconds, ageSeconds, stale };
    });
  }

  /**
   * The marker for payloads built from snapshots of `kind` (only the one with `key` when given),
   * as last polled; undefined when they are fresh. A snapshot never fetched has no marker: without
   * data there is no payload to mark.
   */
  staleMarker(kind: SnapshotKind, key?: string): StaleMarker | undefined {
    let oldest: Fetched | undefined;
    for (const id of EXPECTED_SNAPSHOTS) {
      if (id.kind !== kind || (key !== undefined && id.key !== key) || !this.#stale.get(idOf(id))) continue;
      const fetched = this.#fetched.get(idOf(id));
      if (fetched && (oldest === undefined || fetched.ms < oldest.ms)) oldest = fetched;
    }
    return oldest === undefined ? undefined : { stale: true, data_fetched_at: oldest.iso };
  }
}
