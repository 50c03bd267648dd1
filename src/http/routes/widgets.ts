/** The event and sportsbook widgets, public and under /advertiser: the viewer's cached body. */
import { oddsFormatFor } from '../../domain/odds.js';
import type { ServeContext } from '../../serve/context.js';
import { eventBodies } from '../../serve/event-body.js';
import { sportsbookBodies } from '../../serve/sportsbook-body.js';
import { cachedReply } from '../../transport/respond.js';
import { shapeFor, widgetShapes, type WidgetShapes } from '../cache-policy.js';
import { EventWidgetQuery, SportsbookWidgetQuery } from '../params.js';
import { CACHED, WIDGET } from '../route.js';
import { widgetRoutes } from '../widget-routes.js';

/**
 * A widget route's reply shapes: the body depends on the visitor's jurisdiction and, on public
 * routes, on the X-Advertiser-Id header (it changes the links).
 */
function replyShapes(serve: ServeContext, authenticated: boolean, refreshSeconds: number): WidgetShapes {
  return widgetShapes({
    authenticated,
    cdn: serve.config.cdnGeo,
    refreshSeconds,
    browserMaxAge: serve.config.widgetMaxAgeSeconds,
    vary: ['X-Advertiser-Id'],
  });
}

export const eventWidget = widgetRoutes(
  'event',
  {
    id: 'EventWidget',
    payload: 'EventWidgetPayload',
    summary: "Event widget: one event, every operator's price per outcome",
    description:
      "Each outcome of one event with the price of every operator shown in the viewer's jurisdiction, after fees, and the best one flagged.",
    problems: [404, 429, 503],
  },
  EventWidgetQuery,
  WIDGET,
  (serve: ServeContext, authenticated) => {
    const shapes = replyShapes(serve, authenticated, serve.config.refreshSeconds.events);
    const bodies = eventBodies(serve);
    return ({ req, query: q, viewer }) =>
      cachedReply(
        req,
        bodies(q.slug, q.display_format, viewer.advertiserId, viewer.geo.jurisdiction),
        shapeFor(shapes, viewer.geo),
      );
  },
);

export const sportsbookWidget = widgetRoutes(
  'sportsbook',
  {
    id: 'SportsbookWidget',
    payload: 'SportsbookWidgetPayload',
    summary: "Sportsbook widget: the next matchup of a league with every operator's lines",
    description:
      "The next game of a league (or of one team) with the moneyline, spread and total of every sportsbook shown in the viewer's jurisdiction, in the viewer's odds format, the best line flagged.",
    problems: [404, 429, 503],
  },
  SportsbookWidgetQuery,
  [...CACHED, 'cdn-geo'],
  (serve: ServeContext, authenticated) => {
    const shapes = replyShapes(serve, authenticated, serve.config.refreshSeconds.sportsbook);
    const bodies = sportsbookBodies(serve);
    return ({ req, query: q, viewer }) => {
      const country = viewer.geo.jurisdiction;
      const entry = bodies(
        q.league,
        q.team_context,
        country,
        q.odds_format ?? oddsFormatFor(country),
        viewer.advertiserId,
      );
      return cachedReply(req, entry, shapeFor(shapes, viewer.geo));
    };
  },
);
