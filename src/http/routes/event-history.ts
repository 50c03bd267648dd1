/**
 * GET /v1/widgets/event/history?slug=&range=1d|7d|30d (docs/contract.md, Event history): the
 * worker's stored points for an event, shown as the event widget would be to this visitor (its
 * jurisdiction's operators only). Off the widget path: one Redis read per request.
 */
import { z } from 'zod';
import { catalogView } from '../../catalog/shown-operators.js';
import { readHistory } from '../../store/price-history.js';
import { buildEventHistory, HISTORY_RANGES, type HistoryRange } from '../../widgets/event-history.js';
import type { Deps } from '../deps.js';
import { enumParam, EventWidgetQuery, GeoParams } from '../params.js';
import { dataUnavailable, notFound } from '../../problem.js';
import { parseQuery } from '../query.js';
import { CORS_HEADERS, json } from '../../transport/respond.js';
import { findEvent, requireSnapshot } from '../../serve/snapshot-lookup.js';
import type { Handler } from '../../transport/types.js';
import { viewerJurisdiction } from '../../serve/viewer.js';

export const EventHistoryQuery = z.object({
  slug: EventWidgetQuery.shape.slug,
  range: enumParam(Object.keys(HISTORY_RANGES) as [HistoryRange, ...HistoryRange[]])
    .meta({ description: '1d (5-minute points), 7d or 30d (hourly points). Default: 1d.' })
    .default('1d'),
  fallback_geo: GeoParams.fallback_geo,
});

export function eventHistoryRoute(deps: Deps): Handler {
  return async (req) => {
    const q = parseQuery(EventHistoryQuery, req.query);
    const jurisdiction = viewerJurisdiction(deps.geo, req, q.fallback_geo, false, undefined);
    const event = findEvent(requireSnapshot(deps.snapshots, 'events', 'all'), q.slug);
    if (!event) throw notFound(`No event with slug "${q.slug}". GET /v1/catalog lists the open ones.`);
    const { series, seconds } = HISTORY_RANGES[q.range];
    let points: Awaited<ReturnType<typeof readHistory>>;
    try {
      points = await readHistory(deps.redis, q.slug, series, Math.floor(deps.now() / 1000) - seconds);
    } catch {
      throw dataUnavailable('History cannot be read right now; try again shortly.');
    }
    const shown = catalogView(jurisdiction);
    const payload = buildEventHistory(points, {
      slug: q.slug,
      range: q.range,
      category: event.category,
      jurisdiction,
      isShown: (id) => shown.operatorOn(id, event.category) !== undefined,
    });
    return json(200, payload, { ...CORS_HEADERS, 'cache-control': 'private, max-age=60' });
  };
}
