/** GET /v1/widgets/live-market: the engine's latest payload bytes for (asset, horizon). */
import { z } from 'zod';
import { ASSETS } from '../../live/market.js';
import type { Deps } from '../deps.js';
import { AdvertiserIdParam, enumParam } from '../params.js';
import { parseQuery } from '../query.js';
import { cachedJson, CORS_HEADERS } from '../respond.js';
import type { Handler } from '../types.js';
import type { Attribution } from './widgets.js';

export const LiveMarketQuery = z.object({
  asset: enumParam(ASSETS).default('BTC'),
  horizon_minutes: enumParam(['5', '15']).default('5').transform((h) => (h === '5' ? 5 : 15) as 5 | 15),
  advertiser_id: AdvertiserIdParam,
});

export function liveMarketRoute(deps: Deps, authenticated: boolean, attribution: Attribution): Handler {
  // Prices move several times a second: a second of caching at most.
  const headers = authenticated
    ? { 'cache-control': 'private, max-age=1' }
    : { ...CORS_HEADERS, 'cache-control': 'public, max-age=1', vary: 'X-Advertiser-Id' };
  return (req) => {
    const q = parseQuery(LiveMarketQuery, req.query);
    const advertiserId = attribution(req, q.advertiser_id);
    const entry = advertiserId ? deps.live.forAdvertiser(q.asset, q.horizon_minutes, advertiserId) : deps.live.latest(q.asset, q.horizon_minutes);
    return cachedJson(req, entry, headers);
  };
}
