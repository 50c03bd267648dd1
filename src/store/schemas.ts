/**
 * Snapshot envelopes: what the store keeps at `pw:snap:{kind}:{key}` and announces on `pw:snap`.
 * The data inside is the internal model (src/model); snapshots are validated with these schemas when
 * a worker writes them and again when an API process reads them from Redis.
 */
import { z } from 'zod';
import { EventsData, FxData, LeagueData, MetricsData } from '../model/index.js';

export const SNAPSHOT_KINDS = ['events', 'sportsbook', 'metrics', 'fx'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** The data schema of each snapshot kind. */
export const SnapshotData = {
  events: EventsData,
  sportsbook: LeagueData,
  metrics: MetricsData,
  fx: FxData,
} as const satisfies Record<SnapshotKind, z.ZodType>;

export type SnapshotDataOf<K extends SnapshotKind> = z.infer<(typeof SnapshotData)[K]>;

/** What is stored at `pw:snap:{kind}:{key}`. */
export interface Snapshot<K extends SnapshotKind = SnapshotKind> {
  kind: K;
  key: string;
  /** Increments on every content change. */
  version: number;
  /** When the content last changed (payload timestamps derive from this). */
  changedAt: string;
  data: SnapshotDataOf<K>;
}

/** The `pw:snap` notification. */
export const SnapNotice = z.object({
  kind: z.enum(SNAPSHOT_KINDS),
  key: z.string().min(1),
  version: z.number().int().positive(),
});
export type SnapNotice = z.infer<typeof SnapNotice>;
