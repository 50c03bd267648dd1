/**
 * Odds conversions (American, decimal, implied probability) and the signed strings the sportsbook
 * widget shows. Each function states its formula.
 */
import type { OddsFormat } from '../model/index.js';
import { roundTo } from './aggregate.js';

/**
 * American odds to decimal odds: 1 + A/100 for A > 0, 1 + 100/|A| for A < 0 (+150 → 2.5,
 * -110 → 1.9091).
 *
 * @throws RangeError when `american` is not finite or lies strictly between -100 and +100, where
 *   American odds are undefined
 */
export function americanToDecimal(american: number): number {
  if (!Number.isFinite(american) || (american > -100 && american < 100)) {
    throw new RangeError(`American odds must be >= +100 or <= -100, got ${american}`);
  }
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

/**
 * Decimal odds to American odds, exact (not rounded): 100(d - 1) for d >= 2, -100 / (d - 1) below
 * (1.9091 → -109.99). Both are >= 100 in magnitude on their branch. Exact: each display format
 * rounds from it ({@link formatAmerican}, {@link displayedAmerican}).
 *
 * @throws RangeError when `decimal` is not finite or is <= 1 (no payout, no American odds)
 */
export function decimalToAmerican(decimal: number): number {
  if (!Number.isFinite(decimal) || decimal <= 1) {
    throw new RangeError(`Decimal odds must be finite and > 1, got ${decimal}`);
  }
  return decimal >= 2 ? 100 * (decimal - 1) : -100 / (decimal - 1);
}

/**
 * Implied probability of American odds, 1 / decimal, vig included (-110 → 1/1.9091 = 0.5238).
 *
 * @throws RangeError as {@link americanToDecimal}
 */
export function americanToProbability(american: number): number {
  return 1 / americanToDecimal(american);
}

/**
 * A price (probability) to American odds, exact (not rounded): -100p/(1-p) for p >= 0.5, else
 * 100(1-p)/p (0.1904 → +425.21). Even money (p exactly 0.5) gives -100, from the p >= 0.5 branch;
 * it pays the same as +100. Both formulas give >= 100 in magnitude on their branch. Exact, so each
 * display format rounds from what the exchange really pays ({@link displayedAmerican},
 * {@link formatAmerican}).
 *
 * @throws RangeError when `p` is not strictly between 0 and 1
 */
export function probabilityToAmerican(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`Probability must be in (0, 1), got ${p}`);
  return p >= 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p;
}

/**
 * American odds as the widget shows them, always signed: "+150", "-110".
 * A non-integer input is rounded first: American odds are integers by definition.
 *
 * @throws RangeError when `american` is not finite
 */
export function formatAmerican(american: number): string {
  if (!Number.isFinite(american)) throw new RangeError(`American odds must be finite, got ${american}`);
  const rounded = roundTo(american, 0);
  return rounded < 0 ? `-${-rounded}` : `+${rounded}`;
}

/**
 * A handicap or total as a signed number with only the digits it needs: "+3.5", "-3", "+0.25",
 * and plain "0" for a pick'em (zero has no side).
 * Rounds to 4 decimals first so float noise from upstream arithmetic never reaches the page.
 *
 * @throws RangeError when `point` is not finite
 */
export function formatSignedPoint(point: number): string {
  if (!Number.isFinite(point)) throw new RangeError(`Point must be finite, got ${point}`);
  const rounded = roundTo(point, 4);
  if (rounded === 0) return '0';
  // String() gives the shortest form: no trailing zeros, no exponent in this range.
  return rounded > 0 ? `+${String(rounded)}` : String(rounded);
}

/**
 * The odds format a visitor in `jurisdiction` (a country or "US-NJ") reads: fractional in GB and IE, American in the US and
 * Canada, decimal elsewhere (continental Europe, Australia). Conventions as described by
 * odds-tool.com, "Odds Formats" (glossary, read 2026-11-25).
 */
export function oddsFormatFor(jurisdiction: string): OddsFormat {
  const country = jurisdiction.slice(0, 2);
  if (country === 'GB' || country === 'IE') return 'fractional';
  return country === 'US' || country === 'CA' ? 'american' : 'decimal';
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * The American odds a visitor reads in `format`, as a number: rounded to a whole number for American
 * and fractional odds (the fraction is made from the rounded figure), from the two-decimal figure
 * for decimal odds. Best odds are judged on it (docs/design.md), so books showing the same figure
 * are flagged alike; rounding keeps the order, so the best exact price always shows the best figure.
 *
 * @throws RangeError as {@link americanToDecimal}
 */
export function displayedAmerican(american: number, format: OddsFormat): number {
  if (format !== 'decimal') return roundTo(american, 0);
  const shown = roundTo(americanToDecimal(american), 2);
  // 1.00 (from -100000 and beyond) has no American form: such a price is left as it is.
  return shown > 1 ? decimalToAmerican(shown) : american;
}

/**
 * American odds in `format`: "+225" (american), "3.25" (decimal, two decimals, from the exact
 * price), "9/4" (fractional: the profit per stake of the displayed American odds, A/100 or 100/|A|,
 * in lowest terms; even money is "1/1"). Best odds are judged on these figures, per format
 * ({@link displayedAmerican}).
 *
 * @throws RangeError as {@link americanToDecimal}
 */
export function formatOdds(american: number, format: OddsFormat): string {
  const decimal = americanToDecimal(american);
  if (format === 'decimal') return roundTo(decimal, 2).toFixed(2);
  if (format === 'american') return formatAmerican(american);
  const a = roundTo(american, 0);
  const [num, den] = a > 0 ? [a, 100] : [100, -a];
  const d = gcd(num, den);
  return `${num / d}/${den / d}`;
}
