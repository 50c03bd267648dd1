/**
 * Who a widget route serves, decided once per route when the table is built instead of a boolean
 * threaded through each route: the public, or an authenticated advertiser. The audience says how a
 * request's viewer is placed (serve/viewer.ts) and who its clicks credit; `authenticated` picks
 * the reply shapes (cache-policy.ts).
 */
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import type { GeoResolver, GeoResult } from '../geo/resolver.js';
import { invalidParameters } from '../model/problem.js';
import { advertiserViewerGeo } from '../serve/viewer.js';
import type { Request } from '../transport/types.js';

export interface Audience {
  readonly authenticated: boolean;
  /** The viewer's jurisdiction and where it came from (the source decides whether a shared cache may keep the reply). */
  viewer(req: Request, fallbackGeo: string | undefined, geo: string | undefined): GeoResult;
  /** Who gets credit for clicks: the authenticated advertiser, else the public's optional hint. */
  advertiser(req: Request, queryHint: string | undefined): string | undefined;
}

/**
 * Public widgets: the jurisdiction from a trusted CDN's geo headers or the address (`fallback_geo`
 * when neither places it); an optional advertiser_id (query or header) attributes clicks and grants
 * nothing, and only a registered advertiser is credited: an invented id changes neither links nor
 * cache keys.
 */
export function publicAudience(geo: Pick<GeoResolver, 'resolve'>, isRegistered: (id: string) => boolean): Audience {
  return {
    authenticated: false,
    viewer: (req, fallbackGeo) => geo.resolve(req, fallbackGeo),
    advertiser(req, hint) {
      const header = req.headers['x-advertiser-id'];
      if (hint === undefined && header !== undefined && !ADVERTISER_ID.test(header)) {
        throw invalidParameters([
          { param: 'x-advertiser-id', message: 'must be 3-64 characters of a-z, 0-9, _ and -' },
        ]);
      }
      const id = hint ?? header;
      return id !== undefined && isRegistered(id) ? id : undefined;
    },
  };
}

/**
 * Advertiser widgets, called from the advertiser's server (whose address says nothing of the
 * viewer): only the viewer's `geo` places it; the advertiser credited is the one whose key was checked.
 */
export const ADVERTISER_AUDIENCE: Audience = {
  authenticated: true,
  viewer: (_req, _fallbackGeo, geo) => advertiserViewerGeo(geo),
  advertiser: (req) => req.headers['x-advertiser-id'],
};
