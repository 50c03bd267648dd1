/**
 * Job: refresh the operator-metrics snapshot (`pw:snap:metrics:all`), and append each operator's
 * open interest to its history (`pw:oi:{operator}`) for the ranking's OI acceleration. The history
 * is appended after validation and before the snapshot write, so the API, which reloads the history
 * when the snapshot changes, always finds the newest sample.
 */
import type { MetricsSource } from '../../src/sources/source.js';
import { MetricsData } from '../../src/model/index.js';
import { appendOiHistory } from '../../src/tracking/oi-history.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_METRICS = 'refresh-metrics';

/**
 * History kept by default: three times the longest RANK_OI_PERIOD_MINUTES (1440), so any configured
 * period finds its two periods of samples (the per-operator count cap in oi-history.ts still applies).
 */
export const DEFAULT_OI_RETENTION_MS = 3 * 1440 * 60_000;

/** The job; `oiRetentionMs` may be narrowed to 3 x RANK_OI_PERIOD_MINUTES. */
export function refreshMetrics(deps: RefreshDeps, source: MetricsSource, oiRetentionMs = DEFAULT_OI_RETENTION_MS) {
  return () =>
    refreshSnapshot(deps, 'metrics', 'all', async (ctx) => {
      const data = MetricsData.parse(await source.fetchMetrics(ctx));
      await appendOiHistory(deps.redis, data, ctx.now, oiRetentionMs);
      return data;
    });
}
