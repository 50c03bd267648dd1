/**
 * Serialized widget bodies, cached per request key and dropped when a snapshot of the kind they were
 * built from changes. Builders run once per snapshot version and variant, not once per request, and
 * so does everything transport derives from a body (its compressed copies and ready-made replies,
 * kept in the `Representation` it defines: transport/respond.ts). This module makes the bytes and
 * their validators; it knows nothing of replies.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SnapshotKind } from '../store/schemas.js';
import type { StaleMarker } from '../store/snapshot-freshness.js';
import { Representation } from '../transport/respond.js';
import type { VariantSlot } from './variant-keys.js';

/** The stale marker for bodies built from a kind (one snapshot `key` of it when given). */
export type Staleness = (kind: SnapshotKind, key?: string) => StaleMarker | undefined;

/** A body the cache holds: what transport serves, and the cache's own bookkeeping about it. */
export interface CachedBody {
  readonly representation: Representation;
  /** Epoch ms after which the body must be rebuilt even without a snapshot change. */
  expiresAt: number | undefined;
  /** The one snapshot of its kind the body was built from (a league); undefined: any of them. */
  snapshotKey: string | undefined;
  /** True while the cache holds it: a slot's body is served without a lookup only then. */
  cached: boolean;
  /** The slot last given it, which lets go of it when the cache drops it. */
  slot: VariantSlot<CachedBody> | undefined;
  /** The kind's count of stores when it last took its place as most recently used (see `getOrBuild`). */
  usedAt: number;
}

/**
 * `bytes` with their validators, ready for transport: the tag is a hash of the bytes, so the same
 * bytes have the same ETag in every API process; `lastModified` is when the data last changed.
 */
export function bytesRepresentation(bytes: Buffer, lastModified: Date): Representation {
  return new Representation(bytes, createHash('sha1').update(bytes).digest('base64url'), lastModified);
}

/** A payload serialized as JSON, with its validators (see `bytesRepresentation`). */
export function jsonRepresentation(payload: unknown, lastModified: Date): Representation {
  return bytesRepresentation(Buffer.from(JSON.stringify(payload)), lastModified);
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

/** One kind's bodies, least recently used first out, and how many it has stored. */
interface KindCache {
  lru: LRUCache<string, CachedBody>;
  stores: number;
}

/** What the cache does with a body it lets go of: slots stop serving it and stop holding it. */
function dropped(entry: CachedBody): void {
  entry.cached = false;
  if (entry.slot?.entry === entry) entry.slot.entry = undefined;
}

export class PayloadCache {
  readonly #byKind = new Map<SnapshotKind, KindCache>();
  /** Bodies built so far: a request that moved it paid for a build (rate-limited per address). */
  builds = 0;
  /** The same, by the kind each was built from (metrics: what the origin spends its rebuilds on). */
  readonly buildsByKind = new Map<SnapshotKind, number>();

  /** `staleness` marks bodies built from stale data; call `invalidate` when it changes. */
  constructor(private readonly staleness: Staleness = () => undefined) {}

  /** The body under `key` unless it expired by `nowMs`. */
  get(kind: SnapshotKind, key: string, nowMs: number): Representation | undefined {
    return this.#get(kind, key, nowMs)?.representation;
  }

  #get(kind: SnapshotKind, key: string, nowMs: number): CachedBody | undefined {
    const hit = this.#byKind.get(kind)?.lru.get(key);
    if (!hit || (hit.expiresAt !== undefined && hit.expiresAt <= nowMs)) return undefined;
    return hit;
  }

  /**
   * The body under `at` (a key, or a variant's slot: variant-keys.ts), else the one
   * `build(input, nowMs)` makes, stored: the one way a body is cached. `build` is made once per
   * route and `input` is the key's parts array the caller already holds, so a hit allocates
   * nothing. A hit needs no check that the snapshot exists (snapshots are never dropped once
   * loaded); `build` throws the 503 before the first one.
   *
   * A slot's body, while the cache holds it, is served without a lookup by key: with thousands of
   * variants that lookup misses the CPU's caches and cost as much as the rest of the hit. Such hits
   * leave the body's place in the least-recently-used order alone until half the kind's bound has
   * been stored since it last moved; then it moves to the front, so a body read at least that often
   * is never the one evicted for a client walking new variants.
   */
  getOrBuild<I>(
    kind: SnapshotKind,
    at: string | VariantSlot<CachedBody>,
    nowMs: number,
    build: BodyBuilder<I>,
    input: I,
  ): Representation {
    if (typeof at === 'string')
      return (this.#get(kind, at, nowMs) ?? this.#build(kind, at, nowMs, build, input)).representation;
    const held = at.entry;
    if (held?.cached && (held.expiresAt === undefined || held.expiresAt > nowMs)) {
      const cache = this.#byKind.get(kind)!;
      if (cache.stores - held.usedAt > MAX_ENTRIES_PER_KIND / 2) {
        cache.lru.get(at.key);
        held.usedAt = cache.stores;
      }
      return held.representation;
    }
    const entry = this.#get(kind, at.key, nowMs) ?? this.#build(kind, at.key, nowMs, build, input);
    at.entry = entry;
    entry.slot = at;
    return entry.representation;
  }

  #build<I>(kind: SnapshotKind, key: string, nowMs: number, build: BodyBuilder<I>, input: I): CachedBody {
    const b = build(input, nowMs);
    return this.#store(kind, key, b.payload, b.changedAt, b.expiresAt, b.snapshotKey, b.inputs);
  }

  /** Per input kind, the kinds whose bodies were also built from it (FX → metrics): invalidated with it. */
  readonly #dependents = new Map<SnapshotKind, Set<SnapshotKind>>();

  /**
   * Serializes `payload`, stores it and returns its bytes and validators. A payload built from stale
   * data gets the stale marker; `snapshotKey` narrows that to the one snapshot of `kind` it was built
   * from, and `inputs` names the other snapshots it was built from (FX rates), whose staleness counts too.
   */
  put(
    kind: SnapshotKind,
    key: string,
    payload: unknown,
    changedAt: string,
    expiresAt?: number,
    snapshotKey?: string,
    inputs: readonly SnapshotKind[] = [],
  ): Representation {
    return this.#store(kind, key, payload, changedAt, expiresAt, snapshotKey, inputs).representation;
  }

  #store(
    kind: SnapshotKind,
    key: string,
    payload: unknown,
    changedAt: string,
    expiresAt: number | undefined,
    snapshotKey: string | undefined,
    inputs: readonly SnapshotKind[] = [],
  ): CachedBody {
    this.builds++;
    this.buildsByKind.set(kind, (this.buildsByKind.get(kind) ?? 0) + 1);
    let marker = this.staleness(kind, snapshotKey);
    for (const input of inputs) {
      let deps = this.#dependents.get(input);
      if (!deps) this.#dependents.set(input, (deps = new Set()));
      deps.add(kind);
      const m = this.staleness(input);
      // The oldest fetch among the stale inputs is what the marker reports.
      if (m && (!marker || m.data_fetched_at < marker.data_fetched_at)) marker = m;
    }
    const body = marker && payload && typeof payload === 'object' ? Object.assign({}, payload, marker) : payload;
    let cache = this.#byKind.get(kind);
    if (!cache)
      this.#byKind.set(
        kind,
        (cache = { lru: new LRUCache({ max: MAX_ENTRIES_PER_KIND, dispose: dropped }), stores: 0 }),
      );
    const entry: CachedBody = {
      representation: jsonRepresentation(body, new Date(changedAt)),
      expiresAt,
      snapshotKey,
      cached: true,
      slot: undefined,
      usedAt: ++cache.stores,
    };
    cache.lru.set(key, entry);
    return entry;
  }

  /**
   * Drops the bodies built from `kind`, and those of the kinds built from it too. With `snapshotKey`
   * (one league's snapshot changed), only the bodies built from that snapshot or from any of the
   * kind's go: the other leagues' bodies, and their compressed copies, stay.
   */
  invalidate(kind: SnapshotKind, snapshotKey?: string): void {
    const cache = this.#byKind.get(kind)?.lru;
    if (snapshotKey === undefined) cache?.clear();
    else if (cache) {
      const built = [...cache.entries()].filter(
        ([, entry]) => entry.snapshotKey === undefined || entry.snapshotKey === snapshotKey,
      );
      for (const [key] of built) cache.delete(key);
    }
    for (const d of this.#dependents.get(kind) ?? []) this.#byKind.get(d)?.lru.clear();
  }

  /** Drops every body (what every body was built under changed: the compliance the views come from). */
  invalidateAll(): void {
    for (const { lru } of this.#byKind.values()) lru.clear();
  }
}
