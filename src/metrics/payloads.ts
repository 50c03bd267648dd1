/** Widget bodies built, by what they were built from (API process). */
import { Counter } from 'prom-client';

/** Build counts by kind ("events", "sportsbook", "live-market", ...), read when scraped. */
export type BuildCounts = () => Iterable<readonly [kind: string, builds: number]>;

let source: BuildCounts | undefined;

// Behind a cache every origin request for changed data is a build, and builds, not cached reads,
// are what a data refresh costs an instance (docs/scaling.md). Counted where they happen (a map
// increment), copied here only when scraped; workers' counts are summed.
new Counter({
  name: 'predictwire_payload_builds_total',
  help: 'Widget bodies built (first read of a variant, or its first read or push after its data changed), by the data they were built from',
  labelNames: ['kind'],
  collect() {
    this.reset();
    for (const [kind, builds] of source?.() ?? []) this.inc({ kind }, builds);
  },
});

/** Reports `counts` on /metrics. */
export function exposePayloadBuilds(counts: BuildCounts): void {
  source = counts;
}
