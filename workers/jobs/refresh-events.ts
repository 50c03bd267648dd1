/** Job: refresh the prediction-market events snapshot (`pw:snap:events:all`), then record each event's price history. */
import type { EventsData, MarketEvent } from '../../src/model/index.js';
import type { HistoryWindow, VenueSeries } from '../../src/model/index.js';
import { mapLimit } from '../../src/sources/http/paginate.js';
import { backfillHistory, hasNoHistory } from '../../src/store/history-backfill.js';
import type { EventsSource } from '../../src/sources/source.js';
import { recordHistory } from '../../src/store/price-history.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_EVENTS = 'refresh-events';

/** An events source that can also tell an event's past prices (real venues: their history endpoints). */
type HistorySource = EventsSource & {
  accept?(data: EventsData): void;
  history?(event: MarketEvent, window: HistoryWindow, signal?: AbortSignal): Promise<VenueSeries[]>;
};

export function refreshEvents(deps: RefreshDeps, source: HistorySource) {
  // Only a fetch the refresh accepted (validated, through the quality gate) feeds derived metrics.
  return async () => {
    const result = await refreshSnapshot(
      deps,
      'events',
      'all',
      (ctx) => source.fetchEvents(ctx),
      (d) => source.accept?.(d),
    );
    if (!result.skipped) await recordEventHistory(deps, source);
    return result;
  };
}

/**
 * Adds the published snapshot to each event's price history (store/price-history.ts), after
 * backfilling the events that have none yet from the venues' history when the source has it. A
 * failure is logged, not thrown: the refresh itself succeeded, and the next one tries again.
 */
async function recordEventHistory(deps: RefreshDeps, source: HistorySource): Promise<void> {
  try {
    const snap = await readSnapshot(deps.redis, 'events', 'all');
    if (snap && source.history) await backfillNewEvents(deps, snap.data, source.history.bind(source));
    if (snap) await recordHistory(deps.redis, snap.data, new Date(deps.now()));
  } catch (err) {
    deps.log.warn({ err: (err as Error).message }, 'event history not recorded');
  }
}

/** Backfills, a few at a time, the events with no history; one whose venues fail starts from the points recorded from now on. */
async function backfillNewEvents(
  deps: RefreshDeps,
  data: EventsData,
  history: NonNullable<HistorySource['history']>,
): Promise<void> {
  const fresh = [];
  for (const event of data.events) if (await hasNoHistory(deps.redis, event.slug)) fresh.push(event);
  await mapLimit(fresh, 2, async (event) => {
    try {
      const counts = await backfillHistory(deps.redis, event, (window) => history(event, window), new Date(deps.now()));
      deps.log.info({ slug: event.slug, points: counts }, 'event history backfilled from the venues');
    } catch (err) {
      deps.log.warn({ slug: event.slug, err: (err as Error).message }, 'event history not backfilled');
    }
  });
}
