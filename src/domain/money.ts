/**
 * Money strings (docs/contract.md, "Conventions"): the currency's symbol, then an en-US figure, whatever
 * the reader's locale. Compact strings for volumes, precise strings for live price levels.
 */
import { CURRENCIES, type CurrencyCode } from '../model/index.js';
import { roundTo } from './aggregate.js';

/** Minor-unit digits shown for a currency: yen has no minor unit. */
export function minorDigits(currency: CurrencyCode): number {
  return currency === 'JPY' ? 0 : 2;
}

/**
 * A decimal amount as written ("250", "19.99") in minor units of `currency` (1999), exactly (no
 * floating point); undefined when it is not a plain non-negative decimal with at most the
 * currency's minor digits and at most 12 whole digits.
 */
export function parseMinorUnits(text: string, currency: CurrencyCode): number | undefined {
  const digits = minorDigits(currency);
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!m || (m[2] ?? '').length > digits) return undefined;
  return Number(m[1]! + (m[2] ?? '').padEnd(digits, '0'));
}

/** Minor units of `currency` as an amount (1999 → 19.99). */
export const fromMinorUnits = (minor: number, currency: CurrencyCode): number => minor / 10 ** minorDigits(currency);

/** Inserts en-US thousands separators into a non-negative fixed-point string ("97250.12"). */
function groupThousands(fixed: string): string {
  const dot = fixed.indexOf('.');
  const whole = dot === -1 ? fixed : fixed.slice(0, dot);
  const fraction = dot === -1 ? '' : fixed.slice(dot);
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + fraction;
}

function assertFinite(amount: number): void {
  if (!Number.isFinite(amount)) throw new RangeError(`Money amount must be finite, got ${amount}`);
}

const SUFFIXES = [
  { divisor: 1e3, suffix: 'K' },
  { divisor: 1e6, suffix: 'M' },
  { divisor: 1e9, suffix: 'B' },
] as const;

/**
 * The figure of a compact money string for a non-negative amount, without symbol or sign.
 * Rounds first and picks the unit from the rounded value, so 999.996 reads "1K" and 999,960 reads
 * "1M" rather than "1000.00" or "1000K".
 */
function compactFigure(magnitude: number, currency: CurrencyCode): string {
  const digits = minorDigits(currency);
  const small = roundTo(magnitude, digits);
  if (small < 1000) return small.toFixed(digits);
  let unit = 0;
  let scaled = roundTo(magnitude / SUFFIXES[0].divisor, 1);
  // Move up a unit while rounding reached 1000 and a larger unit exists.
  while (scaled >= 1000 && unit < SUFFIXES.length - 1) {
    unit += 1;
    scaled = roundTo(magnitude / SUFFIXES[unit]!.divisor, 1);
  }
  return groupThousands(scaled.toFixed(1).replace(/\.0$/, '')) + SUFFIXES[unit]!.suffix;
}

/**
 * A volume-style money string: symbol, en-US figure, magnitude suffix.
 * `$950.00`, `£12.3K`, `€850K`, `$2.4M`, `$1.2B`; a trailing ".0" is dropped (`$2M`).
 * Under 1,000 the figure has two decimals (none for JPY: `¥950`). From 1,000 it has one decimal
 * and K, M or B; amounts of a trillion and more stay in B with grouping (`$1,500B`).
 * A negative amount puts "-" before the symbol (`-$2.4M`); one that rounds to zero shows no sign.
 *
 * @throws RangeError when `amount` is not finite
 */
export function formatMoneyCompact(amount: number, currency: CurrencyCode): string {
  assertFinite(amount);
  const figure = compactFigure(Math.abs(amount), currency);
  const sign = amount < 0 && /[1-9]/.test(figure) ? '-' : '';
  return `${sign}${CURRENCIES[currency]}${figure}`;
}

/**
 * A price-level money string at full precision: en-US grouping and two decimals (none for JPY),
 * `$97,250.12`. With `signed`, the sign is always shown before the symbol: `+$12.50`, `-$3.10`,
 * and zero (or anything that rounds to zero) is `+$0.00`, so a spot difference never flickers
 * between "+" and nothing. Without `signed`, only a negative amount carries a sign.
 *
 * @throws RangeError when `amount` is not finite
 */
export function formatMoneyPrecise(amount: number, currency: CurrencyCode, opts?: { signed?: boolean }): string {
  assertFinite(amount);
  const digits = minorDigits(currency);
  const rounded = roundTo(amount, digits);
  const figure = groupThousands(Math.abs(rounded).toFixed(digits));
  const sign = rounded < 0 ? '-' : opts?.signed === true ? '+' : '';
  return `${sign}${CURRENCIES[currency]}${figure}`;
}
