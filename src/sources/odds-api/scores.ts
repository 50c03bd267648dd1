/**
 * Finished games for team trends. The Odds API's /scores gives final scores but no closing line,
 * so the line a game is graded against is the consensus (median over books) of the last odds we saw
 * before it started; a game we never saw priced is not graded (left out). Pure.
 */
import type { FinishedGame, Matchup } from '../../model/index.js';
import { idField, parseEach } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import type { TeamResolver } from './mapping.js';
import { ScoreEvent } from './schemas.js';

export interface ClosingLine {
  spreadHome: number;
  total: number;
}

const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** The books' consensus lines of a matchup, or undefined when a spread or total is missing. */
export function consensusLine(m: Matchup): ClosingLine | undefined {
  const spreadHome = median(m.books.flatMap((b) => (b.homeSpread ? [b.homeSpread.point] : [])));
  const total = median(m.books.flatMap((b) => (b.totalOver ? [b.totalOver.point] : [])));
  return spreadHome !== undefined && total !== undefined && total > 0 ? { spreadHome, total } : undefined;
}

/** Completed games with both scores and a known closing line, as FinishedGames. */
export function normalizeScores(
  raw: readonly unknown[],
  closing: ReadonlyMap<string, ClosingLine>,
  teams: TeamResolver,
): { finished: FinishedGame[]; dropped: Dropped[] } {
  const { ok, dropped } = parseEach(raw, ScoreEvent, idField('id'));
  const finished: FinishedGame[] = [];
  for (const g of ok) {
    const line = closing.get(g.id);
    if (!g.completed || !line || !g.scores) continue;
    const score = (team: string) => g.scores?.find((s) => s.name === team)?.score;
    const home = score(g.home_team);
    const away = score(g.away_team);
    if (home === undefined || away === undefined) continue;
    finished.push({
      id: g.id,
      scheduledTime: new Date(g.commence_time).toISOString(),
      homeCode: teams.resolve(g.home_team).code,
      awayCode: teams.resolve(g.away_team).code,
      homeScore: Number(home),
      awayScore: Number(away),
      closingSpreadHome: line.spreadHome,
      closingTotal: line.total,
    });
  }
  return { finished, dropped };
}
