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
 * Grades one bet into `record`: `score` is the bettor's side of the result (margin, or total) and
 * `line` the handicap added to it (> 0 wins, < 0 loses, 0 pushes). A quarter line (±0.25, ±0.75,
 * ...) is half a stake on each neighbouring line, so each half counts 0.5: a -0.25 handicap on a
 * draw is half a push and half a loss.
 */
function grade(record: { win: number; loss: number; push: number }, score: number, line: number): void {
  const quarter = Math.abs((Math.abs(line * 4) % 2) - 1) < 1e-9;
  const halves = quarter ? [line - 0.25, line + 0.25] : [line];
  const share = 1 / halves.length;
  for (const h of halves) {
    const result = score + h;
    // Scores are integers and lines halves or quarters, so the result is exact; the tolerance only
    // guards against a line that arrived with float noise.
    if (Math.abs(result) < 1e-9) record.push += share;
    else if (result > 0) record.win += share;
    else record.loss += share;
  }
}

/**
 * Against-the-spread record: margin = team score - opponent score + the team's signed closing
 * spread; > 0 a win, < 0 a loss, 0 a push. A quarter line grades as two half stakes (counts of
 * 0.5). Games the team did not play are ignored.
 */
export function atsRecord(games: ReadonlyArray<FinishedGame>, teamCode: string): WLP {
  const r = { win: 0, loss: 0, push: 0 };
  for (const game of games) {
    const side = sideOf(game, teamCode);
    if (side === undefined) continue;
    grade(r, side.scored - side.conceded, side.spread);
  }
  return { wins: r.win, losses: r.loss, pushes: r.push };
}

/**
 * Over/under record of the games the team played: combined points against the closing total;
 * above is an over, below an under, equal a push; a quarter total grades as two half stakes.
 * Games the team did not play are ignored.
 */
export function overUnderRecord(
  games: ReadonlyArray<FinishedGame>,
  teamCode: string,
): { overs: number; unders: number; pushes: number } {
  const r = { win: 0, loss: 0, push: 0 };
  for (const game of games) {
    if (sideOf(game, teamCode) === undefined) continue;
    // The over is a bet on total - line > 0.
    grade(r, game.homeScore + game.awayScore, -game.closingTotal);
  }
  return { overs: r.win, unders: r.loss, pushes: r.push };
}

/**
 * Three counts joined by hyphens, as the payload's ATS and O/U strings and the W-D-L record: "3-2-1";
 * half counts from quarter lines read "3.5-1.5-1".
 */
export function formatTriple(a: number, b: number, c: number): string {
  return `${a}-${b}-${c}`;
}

/** Two counts joined by a hyphen, as the payload's `<team>_record`: "3-2". */
export function formatPair(a: number, b: number): string {
  return `${a}-${b}`;
}
