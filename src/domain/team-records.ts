/**
 * A team's season records from finished games: straight up, against the spread, over/under.
 * Spreads and totals are graded against each game's stated closing line.
 */
import type { FinishedGame } from '../model/index.js';

/** Wins, losses and pushes (ATS). */
export interface WLP {
  wins: number;
  losses: number;
  pushes: number;
}

/** The team's side of a game, or undefined when the team did not play in it. */
function sideOf(
  game: FinishedGame,
  teamCode: string,
): { scored: number; conceded: number; spread: number } | undefined {
  if (game.homeCode === teamCode) {
    return { scored: game.homeScore, conceded: game.awayScore, spread: game.closingSpreadHome };
  }
  if (game.awayCode === teamCode) {
    // The away side's spread is the home spread from the other side of the line.
    return { scored: game.awayScore, conceded: game.homeScore, spread: -game.closingSpreadHome };
  }
  return undefined;
}

/**
 * Straight-up record: wins, losses and draws (equal final scores, as in EPL).
 * Games the team did not play are ignored.
 */
export function straightUpRecord(
  games: ReadonlyArray<FinishedGame>,
  teamCode: string,
): { wins: number; losses: number; draws: number } {
  const record = { wins: 0, losses: 0, draws: 0 };
  for (const game of games) {
    const side = sideOf(game, teamCode);
    if (side === undefined) continue;
    if (side.scored > side.conceded) record.wins += 1;
    else if (side.scored < side.conceded) record.losses += 1;
    else record.draws += 1;
  }
  return record;
}

/**
 * Against-the-spread record: margin = team score - opponent score + the team's signed closing
 * spread; > 0 a win, < 0 a loss, 0 a push. A quarter line is graded whole against the margin (no
 * split stake). Games the team did not play are ignored.
 */
export function atsRecord(games: ReadonlyArray<FinishedGame>, teamCode: string): WLP {
  const record: WLP = { wins: 0, losses: 0, pushes: 0 };
  for (const game of games) {
    const side = sideOf(game, teamCode);
    if (side === undefined) continue;
    const margin = side.scored - side.conceded + side.spread;
    // Scores are integers and lines are halves or quarters, so the margin is exact; the tolerance
    // only guards against a line that arrived with float noise.
    if (Math.abs(margin) < 1e-9) record.pushes += 1;
    else if (margin > 0) record.wins += 1;
    else record.losses += 1;
  }
  return record;
}

/**
 * Over/under record of the games the team played: combined points against the closing total;
 * above is an over, below an under, equal a push. Games the team did not play are ignored.
 */
export function overUnderRecord(
  games: ReadonlyArray<FinishedGame>,
  teamCode: string,
): { overs: number; unders: number; pushes: number } {
  const record = { overs: 0, unders: 0, pushes: 0 };
  for (const game of games) {
    if (sideOf(game, teamCode) === undefined) continue;
    const diff = game.homeScore + game.awayScore - game.closingTotal;
    if (Math.abs(diff) < 1e-9) record.pushes += 1;
    else if (diff > 0) record.overs += 1;
    else record.unders += 1;
  }
  return record;
}

/** Three counts joined by hyphens, as the payload's ATS and O/U strings: "3-2-1". */
export function formatTriple(a: number, b: number, c: number): string {
  return `${a}-${b}-${c}`;
}

/** Two counts joined by a hyphen, as the payload's `<team>_record`: "3-2". */
export function formatPair(a: number, b: number): string {
  return `${a}-${b}`;
}
