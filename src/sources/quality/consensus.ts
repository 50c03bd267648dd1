/**
 * Consensus across books (docs/sources.md, invariant 2), the sharp-consensus check of line-shopping
 * screens: on one game, each book's no-vig moneyline probabilities, spread point and total are
 * compared with the median of the other books'; a book beyond the bound is an outlier (a frozen
 * line, a relabelled market, a unit slip) and its market is withheld, so it never wins best odds.
 * At least two other books are needed, most of them agreeing: against one, or against books that
 * disagree among themselves, nobody can tell which is wrong.
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
  return [b.homeMoneyline, b.awayMoneyline, ...(b.drawMoneyline !== undefined ? [b.drawMoneyline] : [])].map(
    americanToProbability,
  );
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

/** How one kind of figure is compared with the others': where they centre, how far one is, and why it strays. */
interface Measure<T> {
  pick(b: BookOdds): T | undefined;
  center(xs: readonly T[]): T;
  gap(x: T, center: T): number;
  bound: number;
  reason(x: T, center: T, gap: number): string;
}

/**
 * The books whose figure is further than the bound from the other books' centre. A book is judged
 * only where most of the others agree with their centre: with three books, one stray pulls the
 * centre of the other two apart, and the two honest books must not be judged against it.
 */
function againstOthers<T>(books: readonly BookOdds[], m: Measure<T>): Map<string, string> {
  const values = books.flatMap((b) => {
    const v = m.pick(b);
    return v === undefined ? [] : [{ id: b.operatorId, v }];
  });
  const out = new Map<string, string>();
  if (values.length < 3) return out;
  for (const { id, v } of values) {
    const others = values.filter((x) => x.id !== id).map((x) => x.v);
    const center = m.center(others);
    if (others.filter((o) => m.gap(o, center) <= m.bound).length * 2 <= others.length) continue;
    const gap = m.gap(v, center);
    if (gap > m.bound) out.set(id, m.reason(v, center, gap));
  }
  return out;
}

/** No-vig moneylines of one shape (two- or three-way): the outcome furthest from the others' medians decides. */
function moneylines(ways: number, maxGap: number): Measure<number[]> {
  // Two-way books stray as much on both sides: the home side is named then (float noise aside).
  const worst = (x: number[], c: number[]) =>
    x.reduce((w, p, i) => (Math.abs(p - c[i]!) > Math.abs(x[w]! - c[w]!) + 1e-9 ? i : w), 0);
  return {
    pick: (b) => {
      const p = noVig(b);
      return p?.length === ways ? p : undefined;
    },
    center: (xs) => xs[0]!.map((_, i) => median(xs.map((x) => x[i]!))),
    gap: (x, c) => Math.abs(x[worst(x, c)]! - c[worst(x, c)]!),
    bound: maxGap,
    reason: (x, c, gap) =>
      `outlier: no-vig ${OUTCOMES[worst(x, c)]} probability ${round(x[worst(x, c)]!)} against the other books' median ${round(c[worst(x, c)]!)} (gap ${round(gap)} > ${maxGap})`,
  };
}

/** A point (spread or total) against the other books' median point. */
function points(what: string, pick: (b: BookOdds) => number | undefined, bound: number): Measure<number> {
  return {
    pick,
    center: median,
    gap: (x, c) => Math.abs(x - c),
    bound,
    reason: (x, c) => `outlier: ${what} ${x} against the other books' median ${c} (more than ${bound} points apart)`,
  };
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
  for (const ways of [2, 3]) add('h2h', againstOthers(game.books, moneylines(ways, maxGap)));
  add(
    'spreads',
    againstOthers(
      game.books,
      points('home spread', (b) => b.homeSpread?.point, bounds.spreadGap),
    ),
  );
  add(
    'totals',
    againstOthers(
      game.books,
      points('total', (b) => b.totalOver?.point, bounds.totalGap),
    ),
  );
  return out;
}
