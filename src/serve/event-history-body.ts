/**
 * An event's price history as the event widget would show it to a viewer from `jurisdiction` (its
 * operators only): the worker's stored points, one Redis read per call (off the widget path).
 */
import type { Redis } from 'ioredis';
import { catalogView } from '../catalog/shown-operators.js';
import { dataUnavailable, notFound } from '../model/problem.js';
import { readHistory } from '../store/price-history.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import { buildEventHistory, HISTORY_RANGES, type HistoryRange } from '../widgets/event-history.js';
import { findEvent, requireSnapshot } from './snapshot-lookup.js';

export type EventHistory = ReturnType<typeof buildEventHistory>;

/** What history reads: the events snapshot, the request path's Redis connection, the time. */
export interface EventHistorySource {
  snapshots: SnapshotCache;
  redis: Redis;
  now(): number;
}

/** An event's history for a viewer: what the route is given, rather than Redis. */
export type EventHistoryReader = (slug: string, range: HistoryRange, jurisdiction: string) => Promise<EventHistory>;

/** The reader of `src`'s histories. */
export const eventHistoryReader =
  (src: EventHistorySource): EventHistoryReader =>
  (slug, range, jurisdiction) =>
    eventHistory(src, slug, range, jurisdiction);

/**
 * @throws Problem 404 for an unknown event, 503 while the events snapshot or the history cannot be read.
 */
export async function eventHistory(
  src: EventHistorySource,
  slug: string,
  range: HistoryRange,
  jurisdiction: string,
): Promise<EventHistory> {
  const event = findEvent(requireSnapshot(src.snapshots, 'events', 'all'), slug);
  if (!event) throw notFound(`No event with slug "${slug}". GET /v1/catalog lists the open ones.`);
  const { series, seconds } = HISTORY_RANGES[range];
  let points: Awaited<ReturnType<typeof readHistory>>;
  try {
    points = await readHistory(src.redis, slug, series, Math.floor(src.now() / 1000) - seconds);
  } catch {
    throw dataUnavailable('History cannot be read right now; try again shortly.');
  }
  const shown = catalogView(jurisdiction);
  return buildEventHistory(points, {
    slug,
    range,
    category: event.category,
    jurisdiction,
    isShown: (id) => shown.operatorOn(id, event.category) !== undefined,
  });
}
