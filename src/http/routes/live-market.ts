/** GET /v1/widgets/live-market: the engine's latest payload bytes for (asset, horizon). */
import { z } from 'zod';
import { ASSETS } from '../../model/index.js';
import type { CdnName } from '../../geo/cdn-headers.js';
import type { LivePayloads } from '../../serve/live-payloads.js';
import { AdvertiserIdParam, enumParam, GeoParams } from '../params.js';
import { shapeFor, widgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import { CACHED } from '../route.js';
import { widgetRoutes } from '../widget-routes.js';

export const LiveMarketQuery = z.object({
  asset: enumParam(ASSETS).meta({ description: 'The crypto asset. Default: BTC.' }).default('BTC'),
  horizon_minutes: enumParam(['5', '15'])
    .meta({ description: 'The window length in minutes. Default: 5.' })
    .default('5')
    .transform((h) => (h === '5' ? 5 : 15) as 5 | 15),
  advertiser_id: AdvertiserIdParam,
  ...GeoParams,
});

export const liveMarketWidget = widgetRoutes(
  'live-market',
  {
    id: 'LiveMarketWidget',
    payload: 'LiveMarketPayload',
    summary: 'Live market: short up/down contracts on a crypto asset',
    description:
      "The current clock-aligned window of an asset: its strike, the spot price and its path, and each venue's up/down prices; `market_status` stale, without prices, while the price feed is silent.",
    problems: [429],
  },
  LiveMarketQuery,
  [...CACHED, 'cdn-geo'],
  ({ live, cdn }: { live: Pick<LivePayloads, 'latest'>; cdn: CdnName | undefined }, authenticated) => {
    // Prices move several times a second: a second of caching at most (the operators shown depend
    // on the visitor's jurisdiction, so a shared cache keeps it only with a trusted CDN's geo headers).
    const shapes = widgetShapes({ authenticated, cdn, refreshSeconds: 1, browserMaxAge: 1, vary: ['X-Advertiser-Id'] });
    return ({ req, query: q, viewer }) =>
      cachedReply(
        req,
        live.latest(q.asset, q.horizon_minutes, viewer.geo.jurisdiction, viewer.advertiserId),
        shapeFor(shapes, viewer.geo),
      );
  },
);
