/**
 * GET /v1/widgets/broad (and /advertiser/v1/widgets/broad): docs/contract.md. The body depends on the
 * visitor's country, locale and currency (serve/broad-body.ts), so responses vary on
 * Accept-Language; a shared cache may keep them when the country came from a trusted CDN's geo
 * headers, else they are private (http/cache-policy.ts).
 */
import { z } from 'zod';
import { CURRENCY_CODES } from '../../model/index.js';
import { AdvertiserIdParam, enumParam, GeoParams, intParam, RefreshParam } from '../params.js';
import { shapeFor, widgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import type { ServeContext } from '../../serve/context.js';
import { broadBodies } from '../../serve/broad-body.js';
import { WIDGET } from '../route.js';
import { widgetRoutes } from '../widget-routes.js';

export const BroadWidgetQuery = z.object({
  limit: intParam(1, 50).meta({ description: 'At most this many operators. Default: 10.' }).optional(),
  ...GeoParams,
  currency: enumParam(CURRENCY_CODES)
    .meta({
      description: "Currency of the money strings. Default: the viewer's country's when its rate is loaded, else USD.",
    })
    .optional(),
  advertiser_id: AdvertiserIdParam,
  refresh: RefreshParam,
});

export const BROAD_DEFAULT_LIMIT = 10;

export const broadWidget = widgetRoutes(
  'broad',
  {
    id: 'BroadWidget',
    payload: 'BroadWidgetPayload',
    summary: "Broad widget: operators allowed in the visitor's country, ranked",
    description:
      "Every operator that may be shown in the viewer's jurisdiction, ranked by activity and click-through, with its promotion, disclosures and signed links; an empty list where none may be shown.",
    problems: [429, 503],
    language: true,
  },
  BroadWidgetQuery,
  [...WIDGET, 'accept-language'],
  (serve: ServeContext, authenticated) => {
    const shapes = widgetShapes({
      authenticated,
      cdn: serve.config.cdnGeo,
      refreshSeconds: serve.config.refreshSeconds.metrics,
      browserMaxAge: serve.config.widgetMaxAgeSeconds,
      vary: ['Accept-Language', 'X-Advertiser-Id'],
    });
    const bodies = broadBodies(serve);
    return ({ req, query: q, viewer }) => {
      const entry = bodies(
        viewer.geo.jurisdiction,
        viewer.locale,
        viewer.currency,
        q.limit ?? BROAD_DEFAULT_LIMIT,
        viewer.advertiserId,
      );
      return cachedReply(req, entry, shapeFor(shapes, viewer.geo));
    };
  },
);
