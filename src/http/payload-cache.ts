/**
 * Serialized widget bodies, cached per request key and dropped when a snapshot of the kind they were
 * built from changes. Builders run once per snapshot version and variant, not once per request.
 */
import { createHash } from 'node:crypto';
import type { SnapshotKind } from '../store/schemas.js';

export interface CachedBody {
  body: Buffer;
  etag: string;
  lastModified: string;
  /** Epoch ms after which the body must be rebuilt even without a snapshot change. */
  expiresAt?: number;
  /** Operators the body shows: each serving counts an impression for them. */
  shown: readonly string[];
}

// Bounds memory if a client walks many variants; clearing is cheap and rebuilding is fast.
const MAX_ENTRIES_PER_KIND = 5_000;

export class PayloadCache {
  readonly #byKind = new Map<SnapshotKind, Map<string, CachedBody>>();

  get(kind: SnapshotKind, key: string, nowMs: number): CachedBody | undefined {
    const hit = this.#byKind.get(kind)?.get(key);
    if (hit?.expiresAt !== undefined && hit.expiresAt <= nowMs) return undefined;
    return hit;
  }

  /** Serializes `payload`, stores it and returns the entry. */
  put(kind: SnapshotKind, key: string, payload: unknown, changedAt: string, expiresAt?: number, shown: readonly string[] = []): CachedBody {
    const body = Buffer.from(JSON.stringify(payload));
    const entry: CachedBody = {
      body,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      lastModified: new Date(changedAt).toUTCString(),
      expiresAt,
      shown,
    };
    let map = this.#byKind.get(kind);
    if (!map) this.#byKind.set(kind, (map = new Map()));
    if (map.size >= MAX_ENTRIES_PER_KIND) map.clear();
    map.set(key, entry);
    return entry;
  }

  invalidate(kind: SnapshotKind): void {
    this.#byKind.get(kind)?.clear();
  }
}
