/**
 * The quality gate before publishing: a refresh whose result is much worse than the last good
 * snapshot, or insane on its own, is a failure, not a new version. Pure; the refresh job applies it.
 */
import type { SnapshotDataOf, SnapshotKind } from '../../store/schemas.js';
import { checkEvents } from './events.js';
import { checkFx } from './fx.js';
import { DEFAULT_QUALITY, type QualityOptions } from './options.js';
import { checkLeague } from './sportsbook.js';

/** Every violation of `next` (against `prev`, the last good data, when there is one). */
export function checkQuality<K extends SnapshotKind>(
  kind: K,
  prev: SnapshotDataOf<K> | undefined,
  next: SnapshotDataOf<K>,
  now: Date,
  opts: QualityOptions = DEFAULT_QUALITY,
): string[] {
  switch (kind) {
    case 'events':
      return checkEvents(prev as SnapshotDataOf<'events'> | undefined, next as SnapshotDataOf<'events'>, now, opts);
    case 'sportsbook':
      return checkLeague(
        prev as SnapshotDataOf<'sportsbook'> | undefined,
        next as SnapshotDataOf<'sportsbook'>,
        now,
        opts,
      );
    case 'fx':
      return checkFx(prev as SnapshotDataOf<'fx'> | undefined, next as SnapshotDataOf<'fx'>, now, opts);
    default:
      // Metrics are derived from the two snapshots above, which passed the gate already.
      return [];
  }
}
