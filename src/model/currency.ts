/** The currencies money is shown in (docs/contract.md, "Conventions"). */

/** Supported ISO 4217 codes and the symbol printed before the figure. */
export const CURRENCIES = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  CAD: 'CA$',
  AUD: 'A$',
  BRL: 'R$',
  MXN: 'MX$',
  JPY: '¥',
  // No symbol of its own in common use; the space keeps "CHF 12.50" readable.
  CHF: 'CHF ',
  INR: '₹',
} as const satisfies Readonly<Record<string, string>>;

/** A supported ISO 4217 currency code. */
export type CurrencyCode = keyof typeof CURRENCIES;

/** Every supported code, as a non-empty tuple (what `z.enum` and `enumParam` take). */
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];

/**
 * Whether `s` is a supported currency code (exact, upper case, as ISO 4217 writes it).
 * Uses an own-property check so "toString" and friends are not currencies.
 */
export function isCurrencyCode(s: string): s is CurrencyCode {
  return Object.hasOwn(CURRENCIES, s);
}
