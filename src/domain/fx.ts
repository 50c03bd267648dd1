/**
 * Currency for a country and conversion of USD amounts with the FX reference snapshot
 * (rates are units of each currency per 1 USD).
 */
import { isCurrencyCode, type CurrencyCode, type FxData } from '../model/index.js';

// Euro area as of 2026 (Bulgaria joined on 1 January 2026), plus the states that use the euro by
// agreement or unilaterally.
const EURO = [
  'AT',
  'BE',
  'BG',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
  'AD',
  'MC',
  'SM',
  'VA',
  'ME',
  'XK',
];

// A Map, not an object: looked up on every broad widget request, by any country.
const BY_COUNTRY: ReadonlyMap<string, CurrencyCode> = new Map(
  Object.entries({
    ...Object.fromEntries(EURO.map((c) => [c, 'EUR'])),
    GB: 'GBP',
    GG: 'GBP',
    JE: 'GBP',
    IM: 'GBP',
    CA: 'CAD',
    AU: 'AUD',
    BR: 'BRL',
    MX: 'MXN',
    JP: 'JPY',
    CH: 'CHF',
    LI: 'CHF',
    IN: 'INR',
  }).filter((entry): entry is [string, CurrencyCode] => isCurrencyCode(entry[1])),
);

/** The country's own currency when we support it, else USD (docs/contract.md, broad widget `currency`). */
export function currencyForCountry(country: string): CurrencyCode {
  return BY_COUNTRY.get(country) ?? 'USD';
}

/**
 * Units of `currency` per 1 USD: 1 for USD, else from the snapshot; undefined when the snapshot
 * is missing or has no usable rate for it.
 */
export function usdRate(currency: CurrencyCode, fx: FxData | undefined): number | undefined {
  if (currency === 'USD') return 1;
  const rate = fx?.rates[currency];
  return rate !== undefined && Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/** Converts a USD amount at `rate` units per USD. */
export function convertUsd(amountUsd: number, rate: number): number {
  return amountUsd * rate;
}

/**
 * `amount` of `from` in `to`, through USD at the snapshot's reference rates; undefined when a rate
 * is missing.
 */
export function convert(
  amount: number,
  from: CurrencyCode,
  to: CurrencyCode,
  fx: FxData | undefined,
): number | undefined {
  if (from === to) return amount;
  const fromRate = usdRate(from, fx);
  const toRate = usdRate(to, fx);
  return fromRate === undefined || toRate === undefined ? undefined : (amount / fromRate) * toRate;
}
