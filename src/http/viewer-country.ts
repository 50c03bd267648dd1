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
  q: { fallback_geo?: string; geo?: string },
  authenticated: boolean,
): string {
  if (authenticated && q.geo !== undefined) return q.geo;
  return geo.resolve(req, q.fallback_geo).country;
}
