/**
 * The catalog payload (GET /v1/catalog): the events, matchups and live markets a publisher can
 * embed, built from the same snapshots the widgets read. Pure: time comes in as an argument.
 */
import type { EventsData, LeagueData, League } from '../model/index.js';
import type { CatalogPayload } from './payload-schemas.js';

export interface CatalogInput {
  events: EventsData['events'];
  /** Each league of the sportsbook widget with its snapshot, or undefined before its first one. */
  leagues: ReadonlyArray<{ league: League; data: LeagueData | undefined }>;
  live: ReadonlyArray<{ asset: CatalogPayload['live_markets'][number]['asset']; horizons: readonly number[] }>;
  /** When the newest of the snapshots behind the lists changed. */
  changedAt: string;
}

/** The catalog as of `now`: events not yet closed, matchups not yet started (soonest first). */
export function buildCatalog(input: CatalogInput, now: Date): CatalogPayload {
  const t = now.getTime();
  return {
    timestamp: input.changedAt,
    events: input.events
      .filter((e) => Date.parse(e.closesAt) > t)
      .map((e) => ({
        slug: e.slug,
        question: e.question,
        category: e.category,
        closes_at: e.closesAt,
        outcomes: e.outcomes.map((o) => o.name),
      })),
    leagues: input.leagues.map(({ league, data }) => {
      const teams = new Map(data?.teams.map((team) => [team.code, { code: team.code, name: team.name }]));
      const team = (code: string) => teams.get(code) ?? { code, name: code };
      const upcoming = (data?.upcoming ?? [])
        .filter((m) => Date.parse(m.scheduledTime) > t)
        .sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime))
        .map((m) => ({
          event_id: m.id,
          scheduled_time: m.scheduledTime,
          home: team(m.homeCode),
          away: team(m.awayCode),
        }));
      return { league, upcoming };
    }),
    live_markets: input.live.map(({ asset, horizons }) => ({ asset, horizon_minutes: [...horizons] })),
  };
}

/**
 * When the catalog changes without a snapshot change: the next event close or matchup start after
 * `now` (undefined when none is ahead).
 */
export function nextCatalogChange(input: CatalogInput, now: Date): number | undefined {
  const t = now.getTime();
  const times = [
    ...input.events.map((e) => Date.parse(e.closesAt)),
    ...input.leagues.flatMap(({ data }) => (data?.upcoming ?? []).map((m) => Date.parse(m.scheduledTime))),
  ].filter((x) => x > t);
  return times.length ? Math.min(...times) : undefined;
}
