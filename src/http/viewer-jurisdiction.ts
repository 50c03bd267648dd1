/**
 * The jurisdiction a widget is built for. Public routes: a trusted CDN's geo headers or the caller's
 * address (through TRUST_PROXY), else `fallback_geo`, else DEFAULT_GEO, else ZZ. Advertiser routes
 * are called from the advertiser's server, whose address says nothing of the viewer: there only the
 * viewer's `geo` counts, and without it the viewer is unknown (ZZ: nothing that takes stakes).
 */
import type { GeoResolver } from '../geo/resolver.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import type { Request } from './types.js';

export function viewerJurisdiction(
  geo: Pick<GeoResolver, 'resolve'>,
  req: Pick<Request, 'remoteAddress' | 'headers'>,
  fallbackGeo: string | undefined,
  /** Whether the route is an advertiser's (authenticated) one. */
  advertiser: boolean,
  /** The advertiser's `geo`. */
  viewerGeo: string | undefined,
): string {
  // Parameters, not the parsed query: each route's query object has its own shape, and one
  // function reading them all would be slow for every route (see respond.ts).
  if (advertiser) return viewerGeo ?? UNKNOWN_COUNTRY;
  return geo.resolve(req, fallbackGeo).jurisdiction;
}
