/**
 * GET /v1/widgets/event/history?slug=&range=1d|7d|30d (docs/contract.md, Event history): the
 * worker's stored points for an event, shown as the event widget would be to this visitor (its
 * jurisdiction's operators only), served by serve/event-history-body.ts.
 */
import { z } from 'zod';
import type { EventHistoryReader } from '../../serve/event-history-body.js';
import { CORS_HEADERS, json } from '../../transport/respond.js';
import { HISTORY_RANGES, type HistoryRange } from '../../widgets/event-history.js';
import { operation, queryParams } from '../openapi-parts.js';
import { enumParam, EventWidgetQuery, GeoParams } from '../params.js';
import { route } from '../route.js';

const HEADERS = { ...CORS_HEADERS, 'cache-control': 'private, max-age=60' };

export const EventHistoryQuery = z.object({
  slug: EventWidgetQuery.shape.slug,
  range: enumParam(Object.keys(HISTORY_RANGES) as [HistoryRange, ...HistoryRange[]])
    .meta({ description: '1d (5-minute points), 7d or 30d (hourly points). Default: 1d.' })
    .default('1d'),
  fallback_geo: GeoParams.fallback_geo,
});

export const eventHistory = route({
  path: '/v1/widgets/event/history',
  reads: ['cdn-geo'],
  query: EventHistoryQuery,
  viewer: 'public',
  openapi: () =>
    operation('getEventHistory', {
      tag: 'widgets',
      summary: "Event history: each outcome's aggregated probability and operator prices over 1, 7 or 30 days",
      description:
        "Recorded by the worker at each events refresh: 5-minute points for a day, hourly points for 30 days. Only operators allowed in the viewer's jurisdiction appear.",
      payload: 'EventHistoryPayload',
      params: queryParams(EventHistoryQuery),
      // Under /v1/widgets/: an address building too many new variants is refused (variant_build).
      problems: [404, 429, 503],
    }),
  handler:
    (history: EventHistoryReader) =>
    async ({ query: q, viewer }) =>
      json(200, await history(q.slug, q.range, viewer.geo.jurisdiction), HEADERS),
});
