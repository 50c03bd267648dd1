/** Snapshot freshness as metrics: age and stale flag per expected snapshot, and stamps from the future (API process). */
import { Counter, Gauge } from 'prom-client';
import type { SnapshotFreshness } from '../store/snapshot-freshness.js';

let source: SnapshotFreshness | undefined;

// Every API worker holds the same data: the primary's /metrics shows it once, not summed per worker.
const SHARED = 'max' as const;

// Module-level so the default registry holds each name once; the source is whichever API started last.
new Gauge({
  name: 'predictwire_snapshot_age_seconds',
  aggregator: SHARED,
  help: 'Seconds since the snapshot was last fetched successfully from its source',
  labelNames: ['kind', 'key'],
  collect() {
    this.reset();
    for (const s of source?.states() ?? [])
      if (s.ageSeconds !== undefined) this.set({ kind: s.kind, key: s.key }, s.ageSeconds);
  },
});

new Gauge({
  name: 'predictwire_snapshot_stale',
  aggregator: SHARED,
  help: '1 when the snapshot is older than its staleness limit (served, flagged stale), else 0',
  labelNames: ['kind', 'key'],
  collect() {
    this.reset();
    for (const s of source?.states() ?? []) this.set({ kind: s.kind, key: s.key }, s.stale ? 1 : 0);
  },
});

new Counter({
  name: 'predictwire_snapshot_future_stamps_total',
  aggregator: SHARED,
  help: "Snapshot fetch stamps read from the future (the writer's clock ahead by more than a second), aged from when they were seen",
  labelNames: ['kind'],
  collect() {
    this.reset();
    for (const [kind, n] of source?.futureStamps() ?? []) this.inc({ kind }, n);
  },
});

/** Reports `freshness` on /metrics. */
export function exposeSnapshotFreshness(freshness: SnapshotFreshness): void {
  source = freshness;
}
