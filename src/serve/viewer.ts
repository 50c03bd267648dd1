/**
 * The jurisdiction a widget is built for. Public routes: a trusted CDN's geo headers or the caller's
 * address (through TRUST_PROXY), else `fallback_geo`, else DEFAULT_GEO, else ZZ. Advertiser routes
 * are called from the advertiser's server, whose address says nothing of the viewer: there only the
 * viewer's `geo` counts (as a fallback_geo would), and without it the viewer is unknown (ZZ:
 * nothing that takes stakes).
 */
import type { GeoResolver, GeoResult } from '../geo/resolver.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import type { Request } from '../transport/types.js';

// Shared, frozen results: this runs on every widget request.
const advertiserResults = new Map<string, GeoResult>();
const UNKNOWN: GeoResult = Object.freeze({ jurisdiction: UNKNOWN_COUNTRY, source: 'unknown' });

/** The jurisdiction and where it came from (the source decides whether a shared cache may keep the reply). */
export function viewerGeo(
  geo: Pick<GeoResolver, 'resolve'>,
  req: Pick<Request, 'remoteAddress' | 'headers'>,
  fallbackGeo: string | undefined,
  /** Whether the route is an advertiser's (authenticated) one. */
  advertiser: boolean,
  /** The advertiser's `geo`. */
  viewerGeo: string | undefined,
): GeoResult {
  // Parameters, not the parsed query: each route's query object has its own shape, and one
  // function reading them all would be slow for every route (see respond.ts).
  if (!advertiser) return geo.resolve(req, fallbackGeo);
  if (viewerGeo === undefined) return UNKNOWN;
  let result = advertiserResults.get(viewerGeo);
  if (!result) advertiserResults.set(viewerGeo, (result = Object.freeze({ jurisdiction: viewerGeo, source: 'fallback_geo' })));
  return result;
}

/** The jurisdiction code alone (see viewerGeo). */
export function viewerJurisdiction(...args: Parameters<typeof viewerGeo>): string {
  return viewerGeo(...args).jurisdiction;
}
