import { describe, it, expect } from 'vitest';
import { formatMoneyCompact, formatMoneyPrecise } from '../../src/domain/money.js';
import { CURRENCIES, isCurrencyCode } from '../../src/model/index.js';

describe('CURRENCIES and isCurrencyCode', () => {
  it('lists the ten supported codes with their symbols', () => {
    expect(CURRENCIES).toEqual({
      USD: '$',
      EUR: '€',
      GBP: '£',
      CAD: 'CA$',
      AUD: 'A$',
      BRL: 'R$',
      MXN: 'MX$',
      JPY: '¥',
      CHF: 'CHF ',
      INR: '₹',
    });
  });

  it('accepts supported codes only, exactly as written', () => {
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('INR')).toBe(true);
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('XYZ')).toBe(false);
    expect(isCurrencyCode('')).toBe(false);
    // Inherited object keys are not currencies.
    expect(isCurrencyCode('toString')).toBe(false);
    expect(isCurrencyCode('constructor')).toBe(false);
  });
});

describe('formatMoneyCompact', () => {
  it('matches the examples of docs/contract.md', () => {
    expect(formatMoneyCompact(2_400_000, 'USD')).toBe('$2.4M');
    expect(formatMoneyCompact(850_000, 'EUR')).toBe('€850K');
    expect(formatMoneyCompact(12_345, 'GBP')).toBe('£12.3K'); // 12.345K → 12.3K
    expect(formatMoneyCompact(950, 'USD')).toBe('$950.00');
    expect(formatMoneyCompact(1_200_000_000, 'USD')).toBe('$1.2B');
  });

  it('drops a trailing ".0"', () => {
    expect(formatMoneyCompact(2_000_000, 'USD')).toBe('$2M');
    expect(formatMoneyCompact(1000, 'USD')).toBe('$1K');
    expect(formatMoneyCompact(2_040_000, 'USD')).toBe('$2M'); // 2.04M → 2.0M → 2M
  });

  it('rounds halves away from zero', () => {
    expect(formatMoneyCompact(1050, 'USD')).toBe('$1.1K'); // 1.05K
    expect(formatMoneyCompact(12_250, 'USD')).toBe('$12.3K'); // 12.25K
    expect(formatMoneyCompact(0.125, 'USD')).toBe('$0.13');
  });

  it('promotes across unit boundaries after rounding', () => {
    expect(formatMoneyCompact(999_960, 'USD')).toBe('$1M'); // 999.96K → 1000.0K → 1.0M
    expect(formatMoneyCompact(999.996, 'USD')).toBe('$1K'); // 999.996 → 1000.00 → 1.0K
    expect(formatMoneyCompact(999_950_000, 'USD')).toBe('$1B'); // 999.95M → 1000.0M → 1.0B
  });

  it('stays in the unit when rounding does not reach 1000', () => {
    expect(formatMoneyCompact(999.994, 'USD')).toBe('$999.99');
    expect(formatMoneyCompact(999_949, 'USD')).toBe('$999.9K'); // 999.949K → 999.9K
  });

  it('keeps B for a trillion and more, with grouping', () => {
    expect(formatMoneyCompact(1.5e12, 'USD')).toBe('$1,500B');
  });

  it('puts the minus sign before the symbol', () => {
    expect(formatMoneyCompact(-2_400_000, 'USD')).toBe('-$2.4M');
    expect(formatMoneyCompact(-12.5, 'CHF')).toBe('-CHF 12.50');
  });

  it('shows zero, and what rounds to zero, without a sign', () => {
    expect(formatMoneyCompact(0, 'USD')).toBe('$0.00');
    expect(formatMoneyCompact(-0.001, 'USD')).toBe('$0.00');
  });

  it('uses each currency symbol', () => {
    expect(formatMoneyCompact(2_400_000, 'CHF')).toBe('CHF 2.4M');
    expect(formatMoneyCompact(1234, 'CAD')).toBe('CA$1.2K');
    expect(formatMoneyCompact(0.5, 'INR')).toBe('₹0.50');
    expect(formatMoneyCompact(75_000, 'BRL')).toBe('R$75K');
  });

  it('shows yen without decimals under 1,000', () => {
    expect(formatMoneyCompact(950, 'JPY')).toBe('¥950');
    expect(formatMoneyCompact(999.4, 'JPY')).toBe('¥999');
    expect(formatMoneyCompact(999.5, 'JPY')).toBe('¥1K'); // 999.5 → 1000 → 1.0K
    expect(formatMoneyCompact(12_345, 'JPY')).toBe('¥12.3K');
  });

  it('rejects non-finite amounts', () => {
    expect(() => formatMoneyCompact(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => formatMoneyCompact(Infinity, 'USD')).toThrow(RangeError);
  });
});

describe('formatMoneyPrecise', () => {
  it('shows full precision with en-US grouping', () => {
    expect(formatMoneyPrecise(97_250.12, 'USD')).toBe('$97,250.12');
    expect(formatMoneyPrecise(1_234_567.891, 'USD')).toBe('$1,234,567.89');
    expect(formatMoneyPrecise(1_000_000, 'EUR')).toBe('€1,000,000.00');
    expect(formatMoneyPrecise(12.5, 'USD')).toBe('$12.50');
    expect(formatMoneyPrecise(999, 'USD')).toBe('$999.00');
  });

  it('rounds to cents, halves away from zero, carrying into the grouping', () => {
    expect(formatMoneyPrecise(1.005, 'USD')).toBe('$1.01');
    expect(formatMoneyPrecise(999.995, 'USD')).toBe('$1,000.00');
  });

  it('signs negatives without the option', () => {
    expect(formatMoneyPrecise(-3.1, 'USD')).toBe('-$3.10');
  });

  it('always signs with signed: true, zero as +', () => {
    expect(formatMoneyPrecise(12.5, 'USD', { signed: true })).toBe('+$12.50');
    expect(formatMoneyPrecise(-3.1, 'USD', { signed: true })).toBe('-$3.10');
    expect(formatMoneyPrecise(0, 'USD', { signed: true })).toBe('+$0.00');
    expect(formatMoneyPrecise(-0.004, 'USD', { signed: true })).toBe('+$0.00');
    expect(formatMoneyPrecise(-1234.5, 'GBP', { signed: true })).toBe('-£1,234.50');
  });

  it('shows yen without decimals', () => {
    expect(formatMoneyPrecise(97_250.6, 'JPY')).toBe('¥97,251');
    expect(formatMoneyPrecise(-5, 'JPY', { signed: true })).toBe('-¥5');
  });

  it('rejects non-finite amounts', () => {
    expect(() => formatMoneyPrecise(Number.NaN, 'USD')).toThrow(RangeError);
  });
});
