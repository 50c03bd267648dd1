import { describe, it, expect } from 'vitest';
import { formatContractPrice, priceToCents } from '../../src/domain/contract-price.js';
import { DISPLAY_FORMATS } from '../../src/model/index.js';

describe('DISPLAY_FORMATS', () => {
  it('lists the three formats, cents first', () => {
    expect(DISPLAY_FORMATS).toEqual(['cents', 'implied_pct', 'decimal']);
  });
});

describe('priceToCents', () => {
  it('keeps fractional cents', () => {
    expect(priceToCents(0.625)).toBe(62.5);
    expect(priceToCents(0.62)).toBe(62);
    expect(priceToCents(0.005)).toBe(0.5);
  });

  it('removes float noise from differences', () => {
    // 0.57 - 0.55 = 0.019999999999999907 in floats
    expect(priceToCents(0.57 - 0.55)).toBe(2);
    // 0.3 - 0.1 = 0.19999999999999998 in floats
    expect(priceToCents(0.3 - 0.1)).toBe(20);
    expect(priceToCents(0.55 - 0.57)).toBe(-2);
  });

  it('rounds to 4 decimals', () => {
    expect(priceToCents(0.1234567)).toBe(12.3457);
  });

  it('rejects non-finite values', () => {
    expect(() => priceToCents(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatContractPrice: cents', () => {
  it('shows whole cents', () => {
    expect(formatContractPrice(0.62, 'cents')).toBe('62¢');
    expect(formatContractPrice(0.07, 'cents')).toBe('7¢');
  });

  it('rounds halves up, past float noise', () => {
    expect(formatContractPrice(0.625, 'cents')).toBe('63¢');
    // 0.575 * 100 = 57.49999999999999 in floats; the price is 57.5¢ → 58¢
    expect(formatContractPrice(0.575, 'cents')).toBe('58¢');
    expect(formatContractPrice(0.6249, 'cents')).toBe('62¢');
  });

  it('clamps to 1..99 so a live contract never reads 0¢ or 100¢', () => {
    expect(formatContractPrice(0.005, 'cents')).toBe('1¢'); // 0.5¢ → 1¢ by rounding
    expect(formatContractPrice(0.004, 'cents')).toBe('1¢'); // 0.4¢ → 0¢ → clamped to 1¢
    expect(formatContractPrice(0.001, 'cents')).toBe('1¢');
    expect(formatContractPrice(0.994, 'cents')).toBe('99¢');
    expect(formatContractPrice(0.996, 'cents')).toBe('99¢'); // 99.6¢ → 100¢ → clamped to 99¢
  });
});

describe('formatContractPrice: implied_pct', () => {
  it('shows one decimal', () => {
    expect(formatContractPrice(0.62, 'implied_pct')).toBe('62.0%');
    expect(formatContractPrice(0.625, 'implied_pct')).toBe('62.5%');
    expect(formatContractPrice(0.12345, 'implied_pct')).toBe('12.3%');
    expect(formatContractPrice(0.12355, 'implied_pct')).toBe('12.4%'); // 12.355 → 12.4
  });

  it('clamps to 0.1..99.9', () => {
    expect(formatContractPrice(0.0004, 'implied_pct')).toBe('0.1%');
    expect(formatContractPrice(0.9996, 'implied_pct')).toBe('99.9%');
  });
});

describe('formatContractPrice: decimal', () => {
  it('shows decimal odds 1/price with two decimals', () => {
    expect(formatContractPrice(0.62, 'decimal')).toBe('1.61'); // 1/0.62 = 1.6129
    expect(formatContractPrice(0.5, 'decimal')).toBe('2.00');
    expect(formatContractPrice(0.25, 'decimal')).toBe('4.00');
    expect(formatContractPrice(0.3, 'decimal')).toBe('3.33'); // 3.333...
    expect(formatContractPrice(0.005, 'decimal')).toBe('200.00');
    expect(formatContractPrice(0.99, 'decimal')).toBe('1.01'); // 1.0101
  });
});

describe('formatContractPrice: invalid prices', () => {
  it('rejects prices outside (0, 1)', () => {
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN]) {
      expect(() => formatContractPrice(bad, 'cents')).toThrow(RangeError);
    }
  });
});
