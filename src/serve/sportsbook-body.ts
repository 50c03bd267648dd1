/** The sportsbook widget's body for a league, an optional team and a viewer. */
import type { League, OddsFormat } from '../model/index.js';
import { notFound, Problem } from '../model/problem.js';
import { buildSportsbookWidget, nextMatchup } from '../widgets/sportsbook-widget.js';
import { matchTeam } from '../widgets/team-match.js';
import type { ServeContext } from './context.js';
import type { Built, CachedBody } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import { requireSnapshot } from './snapshot-lookup.js';
import { VariantKeys } from './variant-keys.js';
import { widgetContext } from './widget-context.js';

/** League, team_context as given, jurisdiction, odds format, advertiser. */
type SportsbookParts = [
  league: League,
  teamContext: string | undefined,
  country: string,
  format: OddsFormat,
  advertiserId: string | undefined,
];

export type SportsbookBodies = (...parts: SportsbookParts) => Representation;

/**
 * @returns a function that throws Problem 404 for no team or no upcoming matchup, 400 for a
 * team_context that matches several teams, 503 before the league's first snapshot.
 */
export function sportsbookBodies(ctx: ServeContext): SportsbookBodies {
  const keys = new VariantKeys<CachedBody>(
    (p) => `sportsbook|${p[0]}|${((p[1] as string | undefined) ?? '').toLowerCase()}|${p[2]}|${p[3]}|${p[4] ?? ''}`,
  );
  const build = ([league, teamContext, country, format, advertiserId]: SportsbookParts, nowMs: number): Built => {
    const snap = requireSnapshot(ctx.snapshots, 'sportsbook', league);
    const now = new Date(nowMs);
    let teamCode: string | undefined;
    if (teamContext !== undefined) {
      const match = matchTeam(snap.data.teams, teamContext);
      if (match.kind === 'none') throw notFound(`No ${league} team matches team_context "${teamContext}".`);
      if (match.kind === 'ambiguous') {
        throw new Problem(400, 'invalid_parameter', `team_context "${teamContext}" matches several teams`, [
          { param: 'team_context', message: `matches ${match.teams.map((t) => t.name).join(', ')}; be more specific` },
        ]);
      }
      teamCode = match.team.code;
    }
    const matchup = nextMatchup(snap.data, now, teamCode);
    if (!matchup)
      throw notFound(teamCode ? `No upcoming ${league} matchup for ${teamCode}.` : `No upcoming ${league} matchup.`);
    const payload = buildSportsbookWidget(
      snap.data,
      matchup,
      widgetContext(ctx.config, now, advertiserId, `sportsbook|${snap.version}`, country),
      format,
    );
    // The next matchup changes when this one starts, even if no snapshot arrives.
    return { payload, changedAt: snap.changedAt, expiresAt: Date.parse(matchup.scheduledTime), snapshotKey: league };
  };
  return (...parts) => {
    return ctx.payloads.getOrBuild('sportsbook', keys.of(parts), ctx.now(), build, parts);
  };
}
