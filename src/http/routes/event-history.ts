/**
 * GET /v1/widgets/event/history?slug=&range=1d|7d|30d (docs/contract.md, Event history): the
 * worker's stored points for an event, shown as the event widget would be to this visitor (its
 * jurisdiction's operators only), served by serve/event-history-body.ts.
 */
import { z } from 'zod';
import type { GeoResolver } from '../../geo/resolver.js';
import { type EventHistorySource, eventHistory } from '../../serve/event-history-body.js';
import { CORS_HEADERS, json } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import { HISTORY_RANGES, type HistoryRange } from '../../widgets/event-history.js';
import { enumParam, EventWidgetQuery, GeoParams } from '../params.js';
import { parseQuery } from '../query.js';

export const EventHistoryQuery = z.object({
  slug: EventWidgetQuery.shape.slug,
  range: enumParam(Object.keys(HISTORY_RANGES) as [HistoryRange, ...HistoryRange[]])
    .meta({ description: '1d (5-minute points), 7d or 30d (hourly points). Default: 1d.' })
    .default('1d'),
  fallback_geo: GeoParams.fallback_geo,
});

export function eventHistoryRoute(deps: EventHistorySource & { geo: GeoResolver }): Handler {
  return async (req) => {
    const q = parseQuery(EventHistoryQuery, req.query);
    const jurisdiction = deps.geo.resolve(req, q.fallback_geo).jurisdiction;
    const payload = await eventHistory(deps, q.slug, q.range, jurisdiction);
    return json(200, payload, { ...CORS_HEADERS, 'cache-control': 'private, max-age=60' });
  };
}
