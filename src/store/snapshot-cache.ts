/**
 * The API process's in-memory copy of every snapshot. Requests read only from here; Redis is read
 * at start, on each `pw:snap` notification, and after a reconnect (notifications sent while the
 * subscriber was away are lost, so everything is reloaded then).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { EXPECTED_SNAPSHOTS, SNAP_CHANNEL } from './keys.js';
import { SnapNotice, type Snapshot, type SnapshotKind } from './schemas.js';
import { readSnapshot } from './snapshots.js';

export type SnapshotListener = (snapshot: Snapshot) => void;

export class SnapshotCache {
  /** By kind, then key: read on every widget request, so no key string is built per read. */
  readonly #entries = new Map<SnapshotKind, Map<string, Snapshot>>();
  readonly #listeners = new Set<SnapshotListener>();

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly log: Logger,
  ) {}

  /** Subscribes to notifications and loads every expected snapshot that exists. */
  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === SNAP_CHANNEL) this.#onNotice(message);
    });
    // ioredis re-subscribes by itself after a reconnect; reload what may have been missed.
    let connectedOnce = false;
    this.subscriber.on('ready', () => {
      if (connectedOnce) void this.reloadAll();
      connectedOnce = true;
    });
    await this.subscriber.subscribe(SNAP_CHANNEL);
    connectedOnce = true;
    await this.reloadAll();
  }

  /** Loads every expected snapshot (and any already cached) from Redis. */
  async reloadAll(): Promise<void> {
    const ids = new Map(EXPECTED_SNAPSHOTS.map((id) => [`${id.kind}:${id.key}`, id]));
    for (const byKey of this.#entries.values())
      for (const s of byKey.values()) ids.set(`${s.kind}:${s.key}`, { kind: s.kind, key: s.key });
    await Promise.all([...ids.values()].map((id) => this.#load(id.kind, id.key)));
  }

  /** Holds `snapshots` read from elsewhere (the disk copy at a start without Redis) until Redis has newer. */
  seed(snapshots: readonly Snapshot[]): void {
    for (const snap of snapshots) this.#put(snap);
  }

  get<K extends SnapshotKind>(kind: K, key: string): Snapshot<K> | undefined {
    return this.#entries.get(kind)?.get(key) as Snapshot<K> | undefined;
  }

  /** Called after a snapshot is replaced by a newer version. */
  onChange(listener: SnapshotListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onNotice(message: string): void {
    let notice: SnapNotice;
    try {
      notice = SnapNotice.parse(JSON.parse(message));
    } catch {
      this.log.warn({ message: message.slice(0, 200) }, 'ignoring malformed pw:snap notice');
      return;
    }
    const current = this.get(notice.kind, notice.key);
    if (current?.version === notice.version) return;
    void this.#load(notice.kind, notice.key);
  }

  #put(snap: Snapshot): void {
    let byKey = this.#entries.get(snap.kind);
    if (!byKey) this.#entries.set(snap.kind, (byKey = new Map()));
    byKey.set(snap.key, snap);
    for (const listener of this.#listeners) listener(snap);
  }

  async #load(kind: SnapshotKind, key: string): Promise<void> {
    try {
      const snap = await readSnapshot(this.redis, kind, key);
      if (!snap) return;
      const current = this.get(kind, key);
      // Any different version replaces ours: GETs on one connection are answered in order, so a
      // later read is never older, and a flushed Redis (versions restarting at 1) still gets through.
      if (current?.version === snap.version) return;
      this.#put(snap);
    } catch (err) {
      // Keep serving what we have; a bad value in Redis must not take the API down.
      this.log.error(
        { err: (err as Error).message, kind, key },
        'snapshot in Redis failed validation or read; keeping the previous one',
      );
    }
  }
}
