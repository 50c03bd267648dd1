/** Public (and advertiser-prefixed) event and sportsbook widget routes: parse, decide the viewer, serve the cached body. */
import { oddsFormatFor } from '../../domain/odds.js';
import type { Deps } from '../deps.js';
import { EventWidgetQuery, SportsbookWidgetQuery } from '../params.js';
import { parseQuery } from '../query.js';
import { shapeFor, widgetShapes, type WidgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import type { Audience } from '../audience.js';
import { eventBodies } from '../../serve/event-body.js';
import { sportsbookBodies } from '../../serve/sportsbook-body.js';

/**
 * A widget route's reply shapes: the body depends on the visitor's jurisdiction and, on public
 * routes, on the X-Advertiser-Id header (it changes the links).
 */
function replyShapes(deps: Deps, audience: Audience, refreshSeconds: number): WidgetShapes {
  return widgetShapes({
    authenticated: audience.authenticated,
    cdn: deps.config.cdnGeo,
    refreshSeconds,
    browserMaxAge: deps.config.widgetMaxAgeSeconds,
    vary: ['X-Advertiser-Id'],
  });
}

export function eventWidgetRoute(deps: Deps, audience: Audience): Handler {
  const shapes = replyShapes(deps, audience, deps.config.refreshSeconds.events);
  const bodies = eventBodies(deps);
  return (req) => {
    const q = parseQuery(EventWidgetQuery, req.query);
    const advertiserId = audience.advertiser(req, q.advertiser_id);
    const geo = audience.viewer(req, q.fallback_geo, q.geo);
    return cachedReply(req, bodies(q.slug, q.display_format, advertiserId, geo.jurisdiction), shapeFor(shapes, geo));
  };
}

export function sportsbookWidgetRoute(deps: Deps, audience: Audience): Handler {
  const shapes = replyShapes(deps, audience, deps.config.refreshSeconds.sportsbook);
  const bodies = sportsbookBodies(deps);
  return (req) => {
    const q = parseQuery(SportsbookWidgetQuery, req.query);
    const advertiserId = audience.advertiser(req, q.advertiser_id);
    const geo = audience.viewer(req, q.fallback_geo, q.geo);
    const country = geo.jurisdiction;
    const entry = bodies(q.league, q.team_context, country, q.odds_format ?? oddsFormatFor(country), advertiserId);
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}
