/** Compliance as metrics (API process): reviews overdue and suspensions in force. */
import { Gauge } from 'prom-client';

export interface ComplianceGauges {
  /** Rows whose review is older than COMPLIANCE_REVIEW_DAYS, now. */
  overdue(): number;
  /** Active suspensions this process applies. */
  suspensions(): number;
}

let source: ComplianceGauges | undefined;

// Every API worker applies the same compliance: the primary shows it once, not summed per worker.
const SHARED = 'max' as const;

new Gauge({
  name: 'predictwire_compliance_reviews_overdue',
  aggregator: SHARED,
  help: 'Compliance rule rows whose last review (reviewed_on) is older than COMPLIANCE_REVIEW_DAYS',
  collect() {
    if (source) this.set(source.overdue());
  },
});

new Gauge({
  name: 'predictwire_compliance_suspensions_active',
  aggregator: SHARED,
  help: 'Operator suspensions (npm run compliance -- suspend) in force',
  collect() {
    if (source) this.set(source.suspensions());
  },
});

/** Reports `gauges` on /metrics. */
export function exposeCompliance(gauges: ComplianceGauges): void {
  source = gauges;
}
