/** `predictwire_readiness{status}`: what `/readyz` would answer now, as a gauge an alert can watch (API process). */
import { Gauge } from 'prom-client';

export const READINESS = ['ready', 'degraded', 'not_ready'] as const;
export type ReadinessStatus = (typeof READINESS)[number];

let source: (() => ReadinessStatus) | undefined;

// One series per status, 1 for the current one. Over API workers the maximum: a status any worker
// is in shows as 1 (each worker holds the same data, but draining and Redis are its own).
new Gauge({
  name: 'predictwire_readiness',
  aggregator: 'max',
  help: '1 for the status /readyz would answer now (ready, degraded, not_ready), 0 for the others; Redis counts as reachable while predictwire_redis_up is 1',
  labelNames: ['status'],
  collect() {
    this.reset();
    if (!source) return;
    const now = source();
    for (const status of READINESS) this.set({ status }, status === now ? 1 : 0);
  },
});

/** Reports `status` on /metrics (read at scrape time). */
export function exposeReadiness(status: () => ReadinessStatus): void {
  source = status;
}
