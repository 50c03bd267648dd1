/** Job: refresh the operator-metrics snapshot (`pw:snap:metrics:all`). */
import type { MetricsSource } from '../../src/sources/source.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_METRICS = 'refresh-metrics';

export function refreshMetrics(deps: RefreshDeps, source: MetricsSource) {
  return () => refreshSnapshot(deps, 'metrics', 'all', (now) => source.fetchMetrics({ now }));
}
