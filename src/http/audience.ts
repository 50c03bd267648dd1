/**
 * The viewer stage: who a widget route serves, decided once per route when the table is built, and
 * the viewer resolved once per request from it (context.ts), instead of each route asking. The
 * public: placed by a trusted CDN's geo headers or its address; an authenticated advertiser: placed
 * by the `geo` it names (serve/viewer.ts). The audience also says who clicks credit.
 */
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import type { GeoResolver } from '../geo/resolver.js';
import type { CurrencyCode } from '../model/index.js';
import { invalidParameters } from '../model/problem.js';
import { advertiserViewerGeo } from '../serve/viewer.js';
import type { RequestContext } from './context.js';
import type { Next } from './pipeline.js';

/** Who a route serves: the public, or an advertiser whose key the auth stage checked. */
export type Audience = 'public' | 'advertiser';

/** The query parameters the viewer is resolved from, where a route's query has them. */
export interface ViewerQuery {
  readonly fallback_geo?: string | undefined;
  readonly geo?: string | undefined;
  readonly advertiser_id?: string | undefined;
  readonly currency?: CurrencyCode | undefined;
}

/** Resolves the viewer on the context, then runs the route. */
export type ViewerStage = <Q extends ViewerQuery>(next: Next<RequestContext<Q>>) => Next<RequestContext<Q>>;

const BAD_ADVERTISER_HEADER = [{ param: 'x-advertiser-id', message: 'must be 3-64 characters of a-z, 0-9, _ and -' }];

/**
 * Public widgets: the jurisdiction from a trusted CDN's geo headers or the address (`fallback_geo`
 * when neither places it); an optional advertiser_id (query or header) attributes clicks and grants
 * nothing, and only a registered advertiser is credited: an invented id changes neither links nor
 * cache keys.
 */
export function publicViewer(geo: Pick<GeoResolver, 'resolve'>, isRegistered: (id: string) => boolean): ViewerStage {
  return (next) => (ctx) => {
    const q = ctx.query;
    const header = ctx.req.headers['x-advertiser-id'];
    const hint = q.advertiser_id;
    if (hint === undefined && header !== undefined && !ADVERTISER_ID.test(header))
      throw invalidParameters(BAD_ADVERTISER_HEADER);
    const id = hint ?? header;
    ctx.advertiserId = id !== undefined && isRegistered(id) ? id : undefined;
    ctx.geo = geo.resolve(ctx.req, q.fallback_geo);
    ctx.currency = q.currency;
    return next(ctx);
  };
}

/**
 * Advertiser widgets, called from the advertiser's server (whose address says nothing of the
 * viewer): only the viewer's `geo` places it; the advertiser credited is the one whose key the
 * auth stage (auth.ts) checked.
 */
export const advertiserViewer: ViewerStage = (next) => (ctx) => {
  ctx.authenticated = true;
  ctx.advertiserId = ctx.req.headers['x-advertiser-id'];
  ctx.geo = advertiserViewerGeo(ctx.query.geo);
  ctx.currency = ctx.query.currency;
  return next(ctx);
};
