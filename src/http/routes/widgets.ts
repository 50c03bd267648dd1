/** Public (and advertiser-prefixed) widget routes: parse, look up, build once, serve cached bytes. */
import type { DisplayFormat } from '../../domain/contract-price.js';
import { oddsFormatFor } from '../../domain/odds.js';
import type { Deps } from '../deps.js';
import type { CachedBody } from '../../serve/payload-cache.js';
import { EventWidgetQuery, SportsbookWidgetQuery } from '../params.js';
import { notFound, Problem } from '../../problem.js';
import { parseQuery } from '../query.js';
import { shapeFor, widgetShapes, type WidgetShapes } from '../cache-policy.js';
import { cachedReply } from '../../transport/respond.js';
import { findEvent, requireSnapshot } from '../../serve/snapshot-lookup.js';
import type { Handler, Request } from '../../transport/types.js';
import { VariantKeys } from '../../serve/variant-keys.js';
import { viewerGeo } from '../../serve/viewer.js';
import { BODY_TTL_MS, widgetContext } from '../../serve/widget-context.js';
import { buildEventWidget } from '../../widgets/event-widget.js';
import { buildSportsbookWidget, nextMatchup } from '../../widgets/sportsbook-widget.js';
import { matchTeam } from '../../widgets/team-match.js';

/** Who gets credit for clicks: the authenticated advertiser, else the optional public hint. */
export type Attribution = (req: Request, queryHint: string | undefined) => string | undefined;

/**
 * A widget route's reply shapes: the body depends on the visitor's jurisdiction and, on public
 * routes, on the X-Advertiser-Id header (it changes the links).
 */
function replyShapes(deps: Deps, authenticated: boolean, refreshSeconds: number): WidgetShapes {
  return widgetShapes({ authenticated, cdn: deps.config.cdnGeo, refreshSeconds, browserMaxAge: deps.config.widgetMaxAgeSeconds, vary: ['X-Advertiser-Id'] });
}

const eventKeys = new VariantKeys((p) => `event|${p[0]}|${p[1]}|${p[2] ?? ''}|${p[3]}`);

/**
 * The event widget body for a slug and a visitor's country, built once per snapshot version and
 * variant. Shared by the REST route and the WebSocket `event:{slug}` topic.
 * @throws Problem 404 for an unknown slug, 503 before the first snapshot.
 */
export function eventWidgetBody(deps: Deps, slug: string, format: DisplayFormat, advertiserId: string | undefined, country: string): CachedBody {
  const snap = requireSnapshot(deps.snapshots, 'events', 'all');
  const nowMs = deps.now();
  const key = eventKeys.of([slug, format, advertiserId, country]);
  const hit = deps.payloads.get('events', key, nowMs);
  if (hit) return hit;
  const event = findEvent(snap, slug);
  if (!event) throw notFound(`No event with slug "${slug}". GET /advertiser/v1/widgets/events lists the active ones.`);
  const payload = buildEventWidget(event, snap.changedAt, format, widgetContext(deps.config, new Date(nowMs), advertiserId, `event|${snap.version}`, country));
  return deps.payloads.put('events', key, payload, snap.changedAt, nowMs + BODY_TTL_MS);
}

export function eventWidgetRoute(deps: Deps, authenticated: boolean, attribution: Attribution): Handler {
  const shapes = replyShapes(deps, authenticated, deps.config.refreshSeconds.events);
  return (req) => {
    const q = parseQuery(EventWidgetQuery, req.query);
    const advertiserId = attribution(req, q.advertiser_id);
    const geo = viewerGeo(deps.geo, req, q.fallback_geo, authenticated, q.geo);
    const entry = eventWidgetBody(deps, q.slug, q.display_format, advertiserId, geo.jurisdiction);
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}

export function sportsbookWidgetRoute(deps: Deps, authenticated: boolean, attribution: Attribution): Handler {
  const shapes = replyShapes(deps, authenticated, deps.config.refreshSeconds.sportsbook);
  // Parts: league, team_context as given, jurisdiction, odds format, advertiser.
  const keys = new VariantKeys((p) => `sportsbook|${p[0]}|${((p[1] as string | undefined) ?? '').toLowerCase()}|${p[2]}|${p[3]}|${p[4] ?? ''}`);
  return (req) => {
    const q = parseQuery(SportsbookWidgetQuery, req.query);
    const advertiserId = attribution(req, q.advertiser_id);
    const snap = requireSnapshot(deps.snapshots, 'sportsbook', q.league);
    const nowMs = deps.now();
    const geo = viewerGeo(deps.geo, req, q.fallback_geo, authenticated, q.geo);
    const country = geo.jurisdiction;
    const format = q.odds_format ?? oddsFormatFor(country);
    const key = keys.of([q.league, q.team_context, country, format, advertiserId]);
    let entry = deps.payloads.get('sportsbook', key, nowMs);
    if (!entry) {
      const now = new Date(nowMs);
      let teamCode: string | undefined;
      if (q.team_context !== undefined) {
        const match = matchTeam(snap.data.teams, q.team_context);
        if (match.kind === 'none') throw notFound(`No ${q.league} team matches team_context "${q.team_context}".`);
        if (match.kind === 'ambiguous') {
          throw new Problem(400, 'invalid_parameter', `team_context "${q.team_context}" matches several teams`, [
            { param: 'team_context', message: `matches ${match.teams.map((t) => t.name).join(', ')}; be more specific` },
          ]);
        }
        teamCode = match.team.code;
      }
      const matchup = nextMatchup(snap.data, now, teamCode);
      if (!matchup) throw notFound(teamCode ? `No upcoming ${q.league} matchup for ${teamCode}.` : `No upcoming ${q.league} matchup.`);
      const payload = buildSportsbookWidget(snap.data, matchup, widgetContext(deps.config, now, advertiserId, `sportsbook|${snap.version}`, country), format);
      // The next matchup changes when this one starts, even if no snapshot arrives.
      entry = deps.payloads.put('sportsbook', key, payload, snap.changedAt, Date.parse(matchup.scheduledTime), q.league);
    }
    return cachedReply(req, entry, shapeFor(shapes, geo));
  };
}
