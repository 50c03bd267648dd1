/**
 * A league at a clock: this season's finished games (scores and closing lines) and the next
 * upcoming matchups with every book's odds. Schedules, scores and closing lines do not depend on
 * the clock, so they are cached per season (results computed as the clock passes each game); only
 * the upcoming odds are re-evaluated on each call.
 */
import type { FinishedGame, League, LeagueData, Matchup } from '../../model/index.js';
import { bookOdds } from './book-lines.js';
import { booksFor } from './books.js';
import { finalScore, marketView, spreadLine, totalLine } from './game-model.js';
import { seasonSchedule, seasonYearAt, type ScheduledGame } from './schedule.js';
import { TEAMS } from './teams.js';

/** How many upcoming matchups each league lists. */
const UPCOMING: Readonly<Record<League, number>> = { NBA: 10, NCAAB: 8, NFL: 8, EPL: 10 };

interface Season {
  year: number;
  games: ScheduledGame[];
  /** Results, index-aligned with games, filled in as the clock passes each game. */
  results: FinishedGame[];
}

/** A game's final score and closing lines: fixed by the seed, whatever the clock. */
function result(seed: number, league: League, year: number, g: ScheduledGame): FinishedGame {
  const score = finalScore(seed, league, year, g.id, g.home, g.away);
  // Closing lines are the market's view at kick-off.
  const close = marketView(seed, league, year, g.id, g.home, g.away, g.time.getTime() / 1000);
  return {
    id: g.id,
    scheduledTime: g.time.toISOString(),
    homeCode: g.home,
    awayCode: g.away,
    homeScore: score.home,
    awayScore: score.away,
    closingSpreadHome: spreadLine(close),
    closingTotal: totalLine(close),
  };
}

/** Results of the first `n` games, computing only those not computed yet. */
function resultsUpTo(seed: number, league: League, s: Season, n: number): FinishedGame[] {
  for (let i = s.results.length; i < n; i++) s.results.push(result(seed, league, s.year, s.games[i] as ScheduledGame));
  return s.results.slice(0, n);
}

/** Index of the first game at or after `t` (games are sorted by time). */
function firstNotBefore(games: readonly ScheduledGame[], t: number): number {
  let lo = 0;
  let hi = games.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((games[mid] as ScheduledGame).time.getTime() < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds a league snapshot at a clock; `upcomingOnly` skips finished games (metrics need none). */
export type LeagueBuilder = (league: League, now: Date, upcomingOnly?: boolean) => LeagueData;

/** Builds league snapshots for one seed, caching season schedules and results. */
export function createLeagueBuilder(seed: number): LeagueBuilder {
  const cache = new Map<string, Season>();
  const season = (league: League, year: number): Season => {
    const k = `${league}:${year}`;
    let s = cache.get(k);
    if (!s) {
      // A long-running process walks forward through seasons; old ones are not needed again.
      if (cache.size >= 16) cache.clear();
      s = { year, games: seasonSchedule(seed, league, year), results: [] };
      cache.set(k, s);
    }
    return s;
  };

  return (league, now, upcomingOnly = false) => {
    const t = now.getTime();
    const current = season(league, seasonYearAt(league, now));
    const cut = firstNotBefore(current.games, t);
    // Copies, so a caller that mutates its snapshot cannot touch the cache.
    const finished = upcomingOnly ? [] : resultsUpTo(seed, league, current, cut).map((r) => ({ ...r }));

    // Next games: what is left of this season, then the opening games of the next one.
    const upcoming: Matchup[] = [];
    let s = current;
    let i = cut;
    // At most two seasons ahead: a guard against an empty schedule, which would otherwise spin.
    while (upcoming.length < UPCOMING[league] && s.year <= current.year + 2) {
      const g = s.games[i];
      if (!g) {
        s = season(league, s.year + 1);
        i = firstNotBefore(s.games, t);
        continue;
      }
      upcoming.push({
        id: g.id,
        scheduledTime: g.time.toISOString(),
        homeCode: g.home,
        awayCode: g.away,
        books: booksFor(seed, league, g.id).map((b) => bookOdds(seed, league, s.year, g, b, now)),
      });
      i++;
    }

    return {
      league,
      teams: TEAMS[league].map((tm) => ({ code: tm.code, name: tm.name, aliases: [...tm.aliases] })),
      finished,
      upcoming,
    };
  };
}
