/**
 * Best-odds badges (docs/design.md, "Best odds"). Every function compares the values it is given
 * and flags every operator tied for best; the widgets give them the figures as displayed
 * (odds.ts `displayedAmerican`, contract-price.ts `displayedPrice`), so a visitor who sees three
 * operators at +105 sees three badges.
 */
import type { BookOdds, OddsFormat, PricedLine } from '../model/index.js';
import { roundTo } from './aggregate.js';
import { americanToDecimal, displayedAmerican } from './odds.js';

/** Differences at or below this are float noise, not a better price: they count as ties. */
const EPSILON = 1e-9;

/** -1, 0 or 1 for a difference, with anything within {@link EPSILON} treated as equal. */
function signWithin(diff: number): number {
  if (Math.abs(diff) <= EPSILON) return 0;
  return diff > 0 ? 1 : -1;
}

/**
 * Event widget: the ids whose price is the lowest (the cheapest YES is the best odds).
 * Prices within 1e-9 of the minimum tie. Empty input gives an empty set.
 */
export function lowestPriceLeaders(entries: ReadonlyArray<{ id: string; price: number }>): Set<string> {
  let min = Infinity;
  for (const { price } of entries) min = Math.min(min, price);
  const leaders = new Set<string>();
  for (const { id, price } of entries) if (price - min <= EPSILON) leaders.add(id);
  return leaders;
}

/** The sportsbook widget's line keys, as `lines.*` in the payload and in `best_odds`. */
export const LINE_KEYS = [
  'away_spread',
  'home_spread',
  'total_over',
  'total_under',
  'away_moneyline',
  'home_moneyline',
  'draw_moneyline',
] as const;
/** One of {@link LINE_KEYS}. */
export type LineKey = (typeof LINE_KEYS)[number];

/**
 * Moneyline comparison: > 0 when `a` (American odds) pays more than `b`, < 0 when less, 0 on a tie.
 * Compared as decimal payouts, so +100 and -100 (both 2.0) tie.
 */
export function compareMoneyline(a: number, b: number): number {
  return signWithin(americanToDecimal(a) - americanToDecimal(b));
}

/** The price tie-break shared by spreads and totals: the higher decimal payout wins. */
function comparePayout(a: PricedLine, b: PricedLine): number {
  return compareMoneyline(a.price, b.price);
}

/**
 * Spread comparison for either side: > 0 when `a` is better for the bettor than `b`, < 0 when
 * worse, 0 on a tie. The higher signed point wins whatever the price (+3.5 beats +3, -2.5 beats -3);
 * on equal points the higher payout wins.
 */
export function compareSpread(a: PricedLine, b: PricedLine): number {
  return signWithin(a.point - b.point) || comparePayout(a, b);
}

/**
 * Total-over comparison: > 0 when `a` is better than `b`. The lower total wins (over 220.5 beats
 * over 221.5), then the higher payout.
 */
export function compareOver(a: PricedLine, b: PricedLine): number {
  return signWithin(b.point - a.point) || comparePayout(a, b);
}

/**
 * Total-under comparison: > 0 when `a` is better than `b`. The higher total wins (under 221.5
 * beats under 220.5), then the higher payout.
 */
export function compareUnder(a: PricedLine, b: PricedLine): number {
  return signWithin(a.point - b.point) || comparePayout(a, b);
}

/** The ids of every entry that no other entry beats under `compare`. */
function leadersBy<T>(entries: ReadonlyArray<{ id: string; value: T }>, compare: (a: T, b: T) => number): Set<string> {
  let best: Array<{ id: string; value: T }> = [];
  for (const entry of entries) {
    const leader = best[0];
    const order = leader === undefined ? 1 : compare(entry.value, leader.value);
    if (order > 0) best = [entry];
    else if (order === 0) best.push(entry);
  }
  return new Set(best.map((e) => e.id));
}

/** Pairs each book's operatorId with one of its lines, leaving out books that lack that line. */
function offered<T>(
  books: ReadonlyArray<BookOdds>,
  pick: (b: BookOdds) => T | undefined,
): Array<{ id: string; value: T }> {
  const out: Array<{ id: string; value: T }> = [];
  for (const book of books) {
    const value = pick(book);
    if (value !== undefined) out.push({ id: book.operatorId, value });
  }
  return out;
}

/** A book's lines as a visitor reads them in `format`: points to the digits shown, prices to the figure shown. */
function displayedBook(b: BookOdds, format: OddsFormat): BookOdds {
  const line = (l: PricedLine | undefined) =>
    l && { point: roundTo(l.point, 4), price: displayedAmerican(l.price, format) };
  const price = (p: number | undefined) => (p === undefined ? undefined : displayedAmerican(p, format));
  return {
    operatorId: b.operatorId,
    lastUpdate: b.lastUpdate,
    ...(b.homeSpread ? { homeSpread: line(b.homeSpread)! } : {}),
    ...(b.awaySpread ? { awaySpread: line(b.awaySpread)! } : {}),
    ...(b.totalOver ? { totalOver: line(b.totalOver)! } : {}),
    ...(b.totalUnder ? { totalUnder: line(b.totalUnder)! } : {}),
    ...(b.homeMoneyline !== undefined ? { homeMoneyline: price(b.homeMoneyline)! } : {}),
    ...(b.awayMoneyline !== undefined ? { awayMoneyline: price(b.awayMoneyline)! } : {}),
    ...(b.drawMoneyline !== undefined ? { drawMoneyline: price(b.drawMoneyline)! } : {}),
  };
}

/**
 * Sportsbook widget: for every line key, the operatorIds that offer the best line.
 * Spreads by {@link compareSpread}, the over by {@link compareOver}, the under by
 * {@link compareUnder}, moneylines by {@link compareMoneyline}. A book missing a line takes no part
 * for that key; a key nobody offers maps to an empty set. Ties flag every tied operator. With
 * `format`, books are compared on the figures displayed in it (three books showing +105 tie).
 */
export function sportsbookLeaders(all: ReadonlyArray<BookOdds>, format?: OddsFormat): Record<LineKey, Set<string>> {
  const books = format ? all.map((b) => displayedBook(b, format)) : all;
  return {
    away_spread: leadersBy(
      offered(books, (b) => b.awaySpread),
      compareSpread,
    ),
    home_spread: leadersBy(
      offered(books, (b) => b.homeSpread),
      compareSpread,
    ),
    total_over: leadersBy(
      offered(books, (b) => b.totalOver),
      compareOver,
    ),
    total_under: leadersBy(
      offered(books, (b) => b.totalUnder),
      compareUnder,
    ),
    away_moneyline: leadersBy(
      offered(books, (b) => b.awayMoneyline),
      compareMoneyline,
    ),
    home_moneyline: leadersBy(
      offered(books, (b) => b.homeMoneyline),
      compareMoneyline,
    ),
    draw_moneyline: leadersBy(
      offered(books, (b) => b.drawMoneyline),
      compareMoneyline,
    ),
  };
}
