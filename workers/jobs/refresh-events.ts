/** Job: refresh the prediction-market events snapshot (`pw:snap:events:all`). */
import type { EventsSource } from '../../src/sources/source.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_EVENTS = 'refresh-events';

export function refreshEvents(deps: RefreshDeps, source: EventsSource) {
  return () => refreshSnapshot(deps, 'events', 'all', (ctx) => source.fetchEvents(ctx));
}
