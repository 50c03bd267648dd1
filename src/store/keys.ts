/** Redis key and channel names: the wire contract between processes (docs/design.md). */
import { LEAGUES } from '../model/index.js';
import type { SnapshotKind } from './schemas.js';

export const SNAP_CHANNEL = 'pw:snap';
export const snapKey = (kind: SnapshotKind, key: string) => `pw:snap:${kind}:${key}`;
/** Bookkeeping beside each snapshot: version, content hash, changedAt, fetchedAt, failure streak. */
export const metaKey = (kind: SnapshotKind, key: string) => `pw:meta:${kind}:${key}`;
/** Held while one refresh of a snapshot runs, so at most one per snapshot is in flight across workers. */
export const refreshLockKey = (kind: SnapshotKind, key: string) => `pw:lock:refresh:${kind}:${key}`;
export const ticksChannel = (asset: string) => `pw:ticks:${asset}`;
export const strikeKey = (asset: string, horizonMinutes: number, windowStartEpochSec: number) =>
  `pw:strike:${asset}:${horizonMinutes}:${windowStartEpochSec}`;

/** BullMQ keeps its own keys under this prefix. */
export const BULL_PREFIX = 'pw:bull';

export interface SnapshotId {
  kind: SnapshotKind;
  key: string;
}

/** Every snapshot the service needs before it is ready. */
export const EXPECTED_SNAPSHOTS: readonly SnapshotId[] = [
  { kind: 'events', key: 'all' },
  { kind: 'metrics', key: 'all' },
  { kind: 'fx', key: 'daily' },
  ...LEAGUES.map((league) => ({ kind: 'sportsbook' as const, key: league })),
];
/** Venue up/down quotes (src/model/live.ts VenueQuoteMessage) and the latest one per venue. */
export const quotesChannel = (asset: string) => `pw:quotes:${asset}`;
export const quoteKey = (asset: string, horizonMinutes: number, operatorId: string) =>
  `pw:quote:${asset}:${horizonMinutes}:${operatorId}`;
