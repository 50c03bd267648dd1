/**
 * Per-league bounds on the points of a line (docs/sources.md, structure and consensus): where a
 * total or a spread can lie at all, and how far one book's point may sit from the other books'.
 * Pure data.
 *
 * Where they come from: the recorded NBA lines (21 books, 3 games) have totals of 224.5-238.5 and
 * spreads of 1 to 5 points, with every book within 0.5 point of the others' median spread and 1
 * point of their median total; basketball totals stay far inside 150-300 (the highest-scoring NBA
 * game ended 186-184 after three overtimes); college games score less and spread wider; NFL totals
 * sit near 35-55; football (soccer) totals and Asian handicaps are goals, 0.5-4.5 and ±3.
 */
import type { League } from '../../model/index.js';

export interface LeagueBounds {
  /** A total's plausible range, [min, max]. */
  total: readonly [number, number];
  /** The largest plausible spread (handicap) either side. */
  spread: number;
  /** How far a book's spread point may sit from the other books' median before it is an outlier. */
  spreadGap: number;
  /** The same for a total. */
  totalGap: number;
}

export const LEAGUE_BOUNDS: Readonly<Record<League, LeagueBounds>> = {
  NBA: { total: [150, 300], spread: 30, spreadGap: 3, totalGap: 6 },
  NCAAB: { total: [90, 200], spread: 40, spreadGap: 4, totalGap: 6 },
  NFL: { total: [20, 80], spread: 30, spreadGap: 3, totalGap: 4 },
  EPL: { total: [0.5, 8], spread: 5, spreadGap: 1, totalGap: 1 },
};
