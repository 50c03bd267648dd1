/** GET /v1/widgets/live-market: the engine's latest payload bytes for (asset, horizon). */
import { z } from 'zod';
import { ASSETS } from '../../model/index.js';
import type { Deps } from '../deps.js';
import { AdvertiserIdParam, enumParam, GeoParams } from '../params.js';
import { parseQuery } from '../query.js';
import { shapeFor, widgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import type { Audience } from '../audience.js';

export const LiveMarketQuery = z.object({
  asset: enumParam(ASSETS).meta({ description: 'The crypto asset. Default: BTC.' }).default('BTC'),
  horizon_minutes: enumParam(['5', '15'])
    .meta({ description: 'The window length in minutes. Default: 5.' })
    .default('5')
    .transform((h) => (h === '5' ? 5 : 15) as 5 | 15),
  advertiser_id: AdvertiserIdParam,
  ...GeoParams,
});

export function liveMarketRoute(deps: Deps, audience: Audience): Handler {
  // Prices move several times a second: a second of caching at most (the operators shown depend
  // on the visitor's jurisdiction, so a shared cache keeps it only with a trusted CDN's geo headers).
  const shapes = widgetShapes({
    authenticated: audience.authenticated,
    cdn: deps.config.cdnGeo,
    refreshSeconds: 1,
    browserMaxAge: 1,
    vary: ['X-Advertiser-Id'],
  });
  return (req) => {
    const q = parseQuery(LiveMarketQuery, req.query);
    const advertiserId = audience.advertiser(req, q.advertiser_id);
    const geo = audience.viewer(req, q.fallback_geo, q.geo);
    const entry = deps.live.latest(q.asset, q.horizon_minutes, geo.jurisdiction, advertiserId);
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}
