/**
 * Consensus across books (docs/sources.md, invariant 2), the sharp-consensus check of line-shopping
 * screens: on one game, each book's no-vig moneyline probabilities, spread point and total are
 * compared with the median of the other books'; a book beyond the bound is an outlier (a frozen
 * line, a relabelled market, a unit slip) and its market is withheld, so it never wins best odds.
 * At least two other books are needed: against one, nobody can tell which of the two is wrong.
 * Pure.
 */
import { americanToProbability } from '../../domain/odds.js';
import type { BookOdds, Matchup } from '../../model/index.js';
import type { LeagueBounds } from './league-bounds.js';

/** Which of a book's markets an outlier costs. */
export type BookMarket = 'h2h' | 'spreads' | 'totals';

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A book's moneylines as implied probabilities (margin included), home, away, then draw; undefined without both sides. */
export function impliedMoneylines(b: BookOdds): number[] | undefined {
  if (b.homeMoneyline === undefined || b.awayMoneyline === undefined) return undefined;
  return [b.homeMoneyline, b.awayMoneyline, ...(b.drawMoneyline !== undefined ? [b.drawMoneyline] : [])].map(americanToProbability);
}

/** The same with the margin removed (each divided by their sum): what the book thinks will happen. */
export function noVig(b: BookOdds): number[] | undefined {
  const p = impliedMoneylines(b);
  if (!p) return undefined;
  const sum = p.reduce((a, x) => a + x, 0);
  return p.map((x) => x / sum);
}

const OUTCOMES = ['home', 'away', 'draw'];
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

/** Each book's value, with the median of the other books' (only where at least two others have one). */
function againstOthers<T>(books: readonly BookOdds[], pick: (b: BookOdds) => T | undefined, compare: (mine: T, others: T[]) => string | undefined): Map<string, string> {
  const values = books.flatMap((b) => {
    const v = pick(b);
    return v === undefined ? [] : [{ id: b.operatorId, v }];
  });
  const out = new Map<string, string>();
  if (values.length < 3) return out;
  for (const { id, v } of values) {
    const why = compare(v, values.filter((x) => x.id !== id).map((x) => x.v));
    if (why) out.set(id, why);
  }
  return out;
}

/**
 * The outlying markets of `game`, per operator: moneylines whose no-vig probability of an outcome
 * is more than `maxGap` from the other books' median (books of the same shape, two- or three-way),
 * a spread or a total more than the league's gap from theirs.
 */
export function outliers(game: Matchup, bounds: LeagueBounds, maxGap: number): Map<string, Map<BookMarket, string>> {
  const out = new Map<string, Map<BookMarket, string>>();
  const add = (market: BookMarket, found: Map<string, string>) => {
    for (const [id, why] of found) out.set(id, (out.get(id) ?? new Map<BookMarket, string>()).set(market, why));
  };
  for (const ways of [2, 3]) {
    add('h2h', againstOthers(game.books, (b) => (noVig(b)?.length === ways ? noVig(b) : undefined), (mine, others) => {
      const gaps = mine.map((p, i) => ({ i, p, m: median(others.map((o) => o[i]!)) })).map((x) => ({ ...x, gap: Math.abs(x.p - x.m) }));
      // Two-way books stray as much on both sides: the home side is named then (float noise aside).
      const worst = gaps.reduce((a, x) => (x.gap > a.gap + 1e-9 ? x : a));
      return worst.gap > maxGap ? `outlier: no-vig ${OUTCOMES[worst.i]} probability ${round(worst.p)} against the other books' median ${round(worst.m)} (gap ${round(worst.gap)} > ${maxGap})` : undefined;
    }));
  }
  const points = (what: string, gap: number) => (mine: number, others: number[]) => {
    const m = median(others);
    return Math.abs(mine - m) > gap ? `outlier: ${what} ${mine} against the other books' median ${m} (more than ${gap} points apart)` : undefined;
  };
  add('spreads', againstOthers(game.books, (b) => b.homeSpread?.point, points('home spread', bounds.spreadGap)));
  add('totals', againstOthers(game.books, (b) => b.totalOver?.point, points('total', bounds.totalGap)));
  return out;
}
