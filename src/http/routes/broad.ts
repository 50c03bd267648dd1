/**
 * GET /v1/widgets/broad (and /advertiser/v1/widgets/broad): docs/contract.md. The body depends on the
 * visitor's country, locale and currency (serve/broad-body.ts), so responses vary on
 * Accept-Language; a shared cache may keep them when the country came from a trusted CDN's geo
 * headers, else they are private (http/cache-policy.ts).
 */
import { z } from 'zod';
import { CURRENCY_CODES } from '../../model/index.js';
import type { Deps } from '../deps.js';
import { AdvertiserIdParam, enumParam, GeoParams, intParam, RefreshParam } from '../params.js';
import { parseQuery } from '../query.js';
import { shapeFor, widgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import { viewerLocale } from '../../serve/viewer.js';
import { broadBodies } from '../../serve/broad-body.js';
import type { Audience } from '../audience.js';

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

/** The broad widget route for `audience` (the public, or an advertiser). */
export function broadWidgetRoute(deps: Deps, audience: Audience): Handler {
  const shapes = widgetShapes({
    authenticated: audience.authenticated,
    cdn: deps.config.cdnGeo,
    refreshSeconds: deps.config.refreshSeconds.metrics,
    browserMaxAge: deps.config.widgetMaxAgeSeconds,
    vary: ['Accept-Language', 'X-Advertiser-Id'],
  });
  const bodies = broadBodies(deps);
  return (req) => {
    const q = parseQuery(BroadWidgetQuery, req.query);
    const advertiserId = audience.advertiser(req, q.advertiser_id);
    const geo = audience.viewer(req, q.fallback_geo, q.geo);
    const country = geo.jurisdiction;
    const locale = viewerLocale(req.headers['accept-language'], country);
    const entry = bodies(country, locale, q.currency, q.limit ?? BROAD_DEFAULT_LIMIT, advertiserId);
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}
