/**
 * The gate's item pass: per kind, what is wrong with one item is dropped or held and reported,
 * and the rest goes on to the snapshot-level checks (gate.ts). `carried` is the last good
 * snapshot's dropped list (lost lines stay listed, held jumps keep their start). Pure.
 */
import type { Dropped } from './dropped.js';
import type { SnapshotDataOf, SnapshotKind } from '../../store/schemas.js';
import { DEFAULT_QUALITY, type QualityOptions } from './options.js';
import { screenEvents } from './screen-events.js';
import { screenLeague } from './screen-sportsbook.js';

/** `next` with inconsistent items dropped and jumps held, and every item dropped, held or lost. */
export function screenItems<K extends SnapshotKind>(
  kind: K,
  prev: SnapshotDataOf<K> | undefined,
  next: SnapshotDataOf<K>,
  now: Date,
  carried: readonly Dropped[] = [],
  opts: QualityOptions = DEFAULT_QUALITY,
): { data: SnapshotDataOf<K>; dropped: Dropped[] } {
  switch (kind) {
    case 'events':
      return screenEvents(
        prev as SnapshotDataOf<'events'> | undefined,
        next as SnapshotDataOf<'events'>,
        now,
        opts,
        carried,
      ) as { data: SnapshotDataOf<K>; dropped: Dropped[] };
    case 'sportsbook':
      return screenLeague(
        prev as SnapshotDataOf<'sportsbook'> | undefined,
        next as SnapshotDataOf<'sportsbook'>,
        now,
        opts,
        carried,
      ) as { data: SnapshotDataOf<K>; dropped: Dropped[] };
    default:
      // FX is one fixing (judged whole in fx.ts); metrics derive from the two snapshots above.
      return { data: next, dropped: [] };
  }
}
