/**
 * Display of prediction-market contract prices (docs/contract.md, event widget `display_format`). A price is decimal
 * dollars for a contract paying $1, strictly between 0 and 1 (0.62 = 62¢). Comparisons elsewhere
 * use the exact price; these strings are for display only.
 */
import type { DisplayFormat } from '../model/index.js';
import { roundTo } from './aggregate.js';

/**
 * A price (or a difference of prices) in cents, rounded to 4 decimals so float noise disappears:
 * 0.625 → 62.5, and 0.57 - 0.55 → 2 rather than 1.9999999999999907. Used for `spreadCents`.
 *
 * @throws RangeError when `price` is not finite
 */
export function priceToCents(price: number): number {
  if (!Number.isFinite(price)) throw new RangeError(`Price must be finite, got ${price}`);
  return roundTo(price * 100, 4);
}

/**
 * A contract price as the event widget shows it:
 * - `cents`: whole cents, halves rounded up, clamped to 1..99 (`62¢`) so a live contract never
 *   reads "0¢" or "100¢";
 * - `implied_pct`: percent with one decimal (`62.0%`), clamped to 0.1..99.9 for the same reason;
 * - `decimal`: decimal odds 1/price with two decimals (`1.61`).
 *
 * @throws RangeError when `price` is not strictly between 0 and 1
 */
export function formatContractPrice(price: number, format: DisplayFormat): string {
  const shown = displayedFigure(price, format);
  switch (format) {
    case 'cents':
      return `${shown}¢`;
    case 'implied_pct':
      return `${shown.toFixed(1)}%`;
    case 'decimal':
      return shown.toFixed(2);
  }
}

/** The figure {@link formatContractPrice} writes, as a number: cents, percent or decimal odds. */
function displayedFigure(price: number, format: DisplayFormat): number {
  if (!(price > 0 && price < 1)) throw new RangeError(`Contract price must be in (0, 1), got ${price}`);
  // Round from the noise-free cents value: 0.575 * 100 is 57.49999999999999 in floats.
  const cents = priceToCents(price);
  switch (format) {
    case 'cents':
      return Math.min(99, Math.max(1, roundTo(cents, 0)));
    case 'implied_pct':
      return Math.min(99.9, Math.max(0.1, roundTo(cents, 1)));
    case 'decimal':
      return roundTo(1 / price, 2);
  }
}

/**
 * The price a visitor reads in `format`, back as a price (62¢ → 0.62, decimal 1.61 → 1/1.61): best
 * odds are judged on it, so operators showing the same figure are flagged alike. Rounding keeps the
 * order of prices, so the operator with the lowest exact price always shows the lowest figure.
 */
export function displayedPrice(price: number, format: DisplayFormat): number {
  const shown = displayedFigure(price, format);
  return format === 'decimal' ? 1 / shown : shown / 100;
}
