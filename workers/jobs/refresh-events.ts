/** Job: refresh the prediction-market events snapshot (`pw:snap:events:all`). */
import type { EventsData } from '../../src/model/index.js';
import type { EventsSource } from '../../src/sources/source.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_EVENTS = 'refresh-events';

export function refreshEvents(deps: RefreshDeps, source: EventsSource & { accept?(data: EventsData): void }) {
  // Only a fetch the refresh accepted (validated, through the quality gate) feeds derived metrics.
  return () => refreshSnapshot(deps, 'events', 'all', (ctx) => source.fetchEvents(ctx), (d) => source.accept?.(d));
}
