/** Job: refresh the prediction-market events snapshot (`pw:snap:events:all`), then record each event's price history. */
import type { EventsData } from '../../src/model/index.js';
import type { EventsSource } from '../../src/sources/source.js';
import { recordHistory } from '../../src/store/price-history.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_EVENTS = 'refresh-events';

export function refreshEvents(deps: RefreshDeps, source: EventsSource & { accept?(data: EventsData): void }) {
  // Only a fetch the refresh accepted (validated, through the quality gate) feeds derived metrics.
  return async () => {
    const result = await refreshSnapshot(deps, 'events', 'all', (ctx) => source.fetchEvents(ctx), (d) => source.accept?.(d));
    if (!result.skipped) await recordEventHistory(deps);
    return result;
  };
}

/**
 * Adds the published snapshot to each event's price history (store/price-history.ts). A failure
 * is logged, not thrown: the refresh itself succeeded, and the next one records a point again.
 */
async function recordEventHistory(deps: RefreshDeps): Promise<void> {
  try {
    const snap = await readSnapshot(deps.redis, 'events', 'all');
    if (snap) await recordHistory(deps.redis, snap.data, deps.now());
  } catch (err) {
    deps.log.warn({ err: (err as Error).message }, 'event history not recorded');
  }
}
