/**
 * Serialized widget bodies, cached per request key and dropped when a snapshot of the kind they were
 * built from changes. Builders run once per snapshot version and variant, not once per request, and
 * so does everything derived from a body: its compressed copies and ready-made replies
 * (transport/respond.ts).
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SnapshotKind } from '../store/schemas.js';
import type { StaleMarker } from '../store/snapshot-freshness.js';

/** The stale marker for bodies built from a kind (one snapshot `key` of it when given). */
export type Staleness = (kind: SnapshotKind, key?: string) => StaleMarker | undefined;

export interface CachedBody {
  body: Buffer;
  /** Quoted strong entity tag of the uncompressed body. */
  etag: string;
  /** The tag without its closing quote: a compressed copy's tag is this plus its coding. */
  tagStem: string;
  lastModified: string;
  /** Epoch ms after which the body must be rebuilt even without a snapshot change. */
  expiresAt?: number;
  /** Compressed copies, made the first time a client accepts them (transport/respond.ts). */
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
  /** Ready-made replies per route reply shape (transport/respond.ts); keyed by object identity. */
  replies: Map<object, unknown>;
  /** The one snapshot of its kind the body was built from (a league); undefined: any of them. */
  snapshotKey?: string;
}

/**
 * Serializes a payload into a servable body with its ETag. `lastModified` is when the data last
 * changed.
 */
export function toCachedBody(payload: unknown, lastModified: Date, opts: { expiresAt?: number } = {}): CachedBody {
  return bodyEntry(Buffer.from(JSON.stringify(payload)), lastModified, opts);
}

/** A cache entry for bytes that are already serialized (scripts, pages). */
export function bodyEntry(body: Buffer, lastModified: Date, opts: { expiresAt?: number } = {}): CachedBody {
  const tagStem = `"${createHash('sha1').update(body).digest('base64url')}`;
  return {
    body,
    etag: `${tagStem}"`,
    tagStem,
    lastModified: lastModified.toUTCString(),
    expiresAt: opts.expiresAt,
    encoded: {},
    replies: new Map(),
  };
}

/** What a body builder returns: the payload and what the cache needs to know about it (see `put`). */
export interface Built {
  payload: unknown;
  /** When the data last changed: the body's Last-Modified. */
  changedAt: string;
  expiresAt?: number;
  snapshotKey?: string;
  inputs?: readonly SnapshotKind[];
}

/** Builds a body from `input` (the parts its key was made of) at `nowMs`. */
export type BodyBuilder<I> = (input: I, nowMs: number) => Built;

// Bounds memory when a client walks many variants. Least recently used goes first, so a client
// cycling through junk variants cannot push out the bodies everyone else is reading.
const MAX_ENTRIES_PER_KIND = 5_000;

export class PayloadCache {
  readonly #byKind = new Map<SnapshotKind, LRUCache<string, CachedBody>>();
  /** Bodies built so far: a request that moved it paid for a build (rate-limited per address). */
  builds = 0;

  /** `staleness` marks bodies built from stale data; call `invalidate` when it changes. */
  constructor(private readonly staleness: Staleness = () => undefined) {}

  get(kind: SnapshotKind, key: string, nowMs: number): CachedBody | undefined {
    const hit = this.#byKind.get(kind)?.get(key);
    if (!hit || (hit.expiresAt !== undefined && hit.expiresAt <= nowMs)) return undefined;
    return hit;
  }

  /**
   * The body under `key`, else the one `build(input, nowMs)` makes, stored: the one way a body is
   * cached. `build` is made once per route and `input` is the key's parts array the caller already
   * holds, so a hit allocates nothing. A hit needs no check that the snapshot exists (snapshots are
   * never dropped once loaded); `build` throws the 503 before the first one.
   */
  getOrBuild<I>(kind: SnapshotKind, key: string, nowMs: number, build: BodyBuilder<I>, input: I): CachedBody {
    const hit = this.get(kind, key, nowMs);
    if (hit) return hit;
    const b = build(input, nowMs);
    return this.put(kind, key, b.payload, b.changedAt, b.expiresAt, b.snapshotKey, b.inputs);
  }

  /** Per input kind, the kinds whose bodies were also built from it (FX → metrics): invalidated with it. */
  readonly #dependents = new Map<SnapshotKind, Set<SnapshotKind>>();

  /**
   * Serializes `payload`, stores it and returns the entry. A payload built from stale data gets the
   * stale marker; `snapshotKey` narrows that to the one snapshot of `kind` it was built from, and
   * `inputs` names the other snapshots it was built from (FX rates), whose staleness counts too.
   */
  put(
    kind: SnapshotKind,
    key: string,
    payload: unknown,
    changedAt: string,
    expiresAt?: number,
    snapshotKey?: string,
    inputs: readonly SnapshotKind[] = [],
  ): CachedBody {
    this.builds++;
    let marker = this.staleness(kind, snapshotKey);
    for (const input of inputs) {
      let deps = this.#dependents.get(input);
      if (!deps) this.#dependents.set(input, (deps = new Set()));
      deps.add(kind);
      const m = this.staleness(input);
      // The oldest fetch among the stale inputs is what the marker reports.
      if (m && (!marker || m.data_fetched_at < marker.data_fetched_at)) marker = m;
    }
    const body = marker && payload && typeof payload === 'object' ? { ...payload, ...marker } : payload;
    const entry = toCachedBody(body, new Date(changedAt), { expiresAt });
    entry.snapshotKey = snapshotKey;
    let cache = this.#byKind.get(kind);
    if (!cache) this.#byKind.set(kind, (cache = new LRUCache({ max: MAX_ENTRIES_PER_KIND })));
    cache.set(key, entry);
    return entry;
  }

  /**
   * Drops the bodies built from `kind`, and those of the kinds built from it too. With `snapshotKey`
   * (one league's snapshot changed), only the bodies built from that snapshot or from any of the
   * kind's go: the other leagues' bodies, and their compressed copies, stay.
   */
  invalidate(kind: SnapshotKind, snapshotKey?: string): void {
    const cache = this.#byKind.get(kind);
    if (snapshotKey === undefined) cache?.clear();
    else if (cache) {
      const built = [...cache.entries()].filter(([, entry]) => entry.snapshotKey === undefined || entry.snapshotKey === snapshotKey);
      for (const [key] of built) cache.delete(key);
    }
    for (const d of this.#dependents.get(kind) ?? []) this.#byKind.get(d)?.clear();
  }
}
