/** Reads from the in-memory snapshot cache, turning "nothing yet" into a 503 problem. */
import type { MarketEvent } from '../model/index.js';
import type { Snapshot, SnapshotKind } from '../store/schemas.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import { dataUnavailable, notFound, type Problem } from '../model/problem.js';

export function requireSnapshot<K extends SnapshotKind>(cache: SnapshotCache, kind: K, key: string): Snapshot<K> {
  const snap = cache.get(kind, key);
  if (!snap) throw dataUnavailable(`No ${kind} data has been loaded yet for ${key}; try again shortly.`);
  return snap;
}

// One slug index per snapshot object; dropped with the snapshot.
const indexes = new WeakMap<object, Map<string, MarketEvent>>();

export function findEvent(snap: Snapshot<'events'>, slug: string): MarketEvent | undefined {
  let index = indexes.get(snap);
  if (!index) {
    index = new Map(snap.data.events.map((e) => [e.slug, e]));
    indexes.set(snap, index);
  }
  return index.get(slug);
}

/** The 404 for a slug no open event has. */
export const unknownEvent = (slug: string): Problem =>
  notFound(`No event with slug "${slug}". GET /advertiser/v1/widgets/events lists the active ones.`);

/** The event `slug` of `snap`. @throws Problem 404 when there is none. */
export function requireEvent(snap: Snapshot<'events'>, slug: string): MarketEvent {
  const event = findEvent(snap, slug);
  if (!event) throw unknownEvent(slug);
  return event;
}
