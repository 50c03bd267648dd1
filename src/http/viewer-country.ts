/**
 * The country a widget is built for. Public routes: the caller's address (through TRUST_PROXY),
 * else `fallback_geo`, else DEFAULT_GEO, else ZZ, exactly as the broad widget. Advertiser routes are
 * called from the advertiser's server, whose address says nothing of the viewer: there an explicit
 * `geo` (the viewer's country) wins, and the same chain applies without it.
 */
import type { GeoResolver } from '../geo/resolver.js';
import type { Request } from './types.js';

export function viewerCountry(
  geo: Pick<GeoResolver, 'resolve'>,
  req: Pick<Request, 'remoteAddress' | 'headers'>,
  fallbackGeo: string | undefined,
  /** The advertiser's `geo`; undefined on public routes. */
  advertiserGeo: string | undefined,
): string {
  // Parameters, not the parsed query: each route's query object has its own shape, and one
  // function reading them all would be slow for every route (see respond.ts).
  if (advertiserGeo !== undefined) return advertiserGeo;
  return geo.resolve(req, fallbackGeo).country;
}
