import { describe, it, expect } from 'vitest';
import {
  americanToDecimal,
  americanToProbability,
  decimalToAmerican,
  formatAmerican,
  formatOdds,
  formatSignedPoint,
  oddsFormatFor,
  probabilityToAmerican,
} from '../../src/domain/odds.js';

describe('americanToDecimal', () => {
  it('converts positive odds: 1 + A/100', () => {
    expect(americanToDecimal(150)).toBe(2.5);
    expect(americanToDecimal(100)).toBe(2);
    expect(americanToDecimal(250)).toBe(3.5);
  });

  it('converts negative odds: 1 + 100/|A|', () => {
    expect(americanToDecimal(-200)).toBe(1.5);
    expect(americanToDecimal(-100)).toBe(2);
    // 1 + 100/110 = 1.909090...
    expect(americanToDecimal(-110)).toBeCloseTo(1.9090909091, 9);
  });

  it('rejects values that are not American odds', () => {
    expect(() => americanToDecimal(0)).toThrow(RangeError);
    expect(() => americanToDecimal(99)).toThrow(RangeError);
    expect(() => americanToDecimal(-50)).toThrow(RangeError);
    expect(() => americanToDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => americanToDecimal(Infinity)).toThrow(RangeError);
  });
});

describe('decimalToAmerican', () => {
  it('gives positive odds from 2.0 up: 100(d - 1)', () => {
    expect(decimalToAmerican(2.5)).toBe(150);
    expect(decimalToAmerican(2)).toBe(100);
    expect(decimalToAmerican(11)).toBe(1000);
    // Exact, not rounded: 5.2521 pays more than +425.
    expect(decimalToAmerican(5.2521)).toBeCloseTo(425.21, 9);
  });

  it('gives negative odds below 2.0: -100 / (d - 1), exact', () => {
    expect(decimalToAmerican(1.5)).toBe(-200);
    // 100 / 0.9091 = 109.9989...: shown as -110
    expect(decimalToAmerican(1.9091)).toBeCloseTo(-109.9989, 4);
    expect(formatAmerican(decimalToAmerican(1.9091))).toBe('-110');
    // 100 / 0.999 = 100.1, never inside (-100, 100)
    expect(decimalToAmerican(1.999)).toBeCloseTo(-100.1001, 4);
    expect(formatAmerican(decimalToAmerican(1.999))).toBe('-100');
  });

  it('round-trips American odds', () => {
    for (const a of [-500, -150, -110, -105, 100, 105, 120, 333, 425.21]) {
      expect(decimalToAmerican(americanToDecimal(a))).toBeCloseTo(a, 9);
    }
    // -100 and +100 are the same price (decimal 2.0); 2.0 reads back as +100.
    expect(decimalToAmerican(americanToDecimal(-100))).toBe(100);
  });

  it('rejects decimal odds of 1 or less and non-finite values', () => {
    expect(() => decimalToAmerican(1)).toThrow(RangeError);
    expect(() => decimalToAmerican(0.5)).toThrow(RangeError);
    expect(() => decimalToAmerican(Number.NaN)).toThrow(RangeError);
    expect(() => decimalToAmerican(Infinity)).toThrow(RangeError);
  });
});

describe('americanToProbability', () => {
  it('is 1/decimal, vig included', () => {
    // -110 → 1.9091 → 1/1.9091 = 110/210 = 0.523809... = 52.38%
    expect(americanToProbability(-110)).toBeCloseTo(0.5238095238, 9);
    // +150 → 2.5 → 0.4
    expect(americanToProbability(150)).toBeCloseTo(0.4, 12);
    // -200 → 1.5 → 0.6667
    expect(americanToProbability(-200)).toBeCloseTo(2 / 3, 12);
    expect(americanToProbability(100)).toBe(0.5);
  });
});

describe('probabilityToAmerican', () => {
  it('gives negative odds for favourites: -100p/(1-p)', () => {
    // 0.6 → -60/0.4 = -150
    expect(probabilityToAmerican(0.6)).toBeCloseTo(-150, 9);
    // 0.75 → -75/0.25 = -300
    expect(probabilityToAmerican(0.75)).toBe(-300);
    // 0.5238 → -52.38/0.4762 = -109.996..., exact; shown as -110
    expect(probabilityToAmerican(0.5238)).toBeCloseTo(-109.9958, 4);
    expect(formatAmerican(probabilityToAmerican(0.5238))).toBe('-110');
  });

  it('gives positive odds for underdogs: 100(1-p)/p, exact', () => {
    // 0.4 → 60/0.4 = 150
    expect(probabilityToAmerican(0.4)).toBeCloseTo(150, 9);
    // 0.2 → 80/0.2 = 400
    expect(probabilityToAmerican(0.2)).toBe(400);
    // 0.3 → 70/0.3 = 233.33: shown as +233
    expect(probabilityToAmerican(0.3)).toBeCloseTo(233.3333, 4);
    expect(formatAmerican(probabilityToAmerican(0.3))).toBe('+233');
    // An 18¢ ask after Kalshi's fee ($1.04 per 100): 0.1904 → 80.96/0.1904 = +425.21, more than +425.
    expect(probabilityToAmerican(0.1904)).toBeCloseTo(425.2101, 4);
  });

  it('maps even money to -100 and never returns |A| < 100 near it', () => {
    expect(probabilityToAmerican(0.5)).toBe(-100);
    expect(probabilityToAmerican(0.4999)).toBeGreaterThanOrEqual(100); // 50.01/0.4999 = 100.04
    expect(probabilityToAmerican(0.5001)).toBeLessThanOrEqual(-100); // -50.01/0.4999 = -100.04
  });

  it('rejects probabilities outside (0, 1)', () => {
    expect(() => probabilityToAmerican(0)).toThrow(RangeError);
    expect(() => probabilityToAmerican(1)).toThrow(RangeError);
    expect(() => probabilityToAmerican(-0.1)).toThrow(RangeError);
    expect(() => probabilityToAmerican(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatAmerican', () => {
  it('always carries a sign', () => {
    expect(formatAmerican(150)).toBe('+150');
    expect(formatAmerican(-110)).toBe('-110');
    expect(formatAmerican(100)).toBe('+100');
    expect(formatAmerican(-100)).toBe('-100');
  });

  it('rounds a stray fraction and rejects non-finite values', () => {
    expect(formatAmerican(-109.6)).toBe('-110');
    expect(() => formatAmerican(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatSignedPoint', () => {
  it('signs handicaps and keeps only needed digits', () => {
    expect(formatSignedPoint(3.5)).toBe('+3.5');
    expect(formatSignedPoint(-3)).toBe('-3');
    expect(formatSignedPoint(-10)).toBe('-10');
    expect(formatSignedPoint(0.25)).toBe('+0.25');
    expect(formatSignedPoint(-0.75)).toBe('-0.75');
    expect(formatSignedPoint(220.5)).toBe('+220.5');
  });

  it('shows zero without a sign', () => {
    expect(formatSignedPoint(0)).toBe('0');
    expect(formatSignedPoint(-0)).toBe('0');
  });

  it('hides float noise', () => {
    expect(formatSignedPoint(0.1 + 0.2)).toBe('+0.3');
    expect(formatSignedPoint(-3.5000000001)).toBe('-3.5');
  });

  it('rejects non-finite values', () => {
    expect(() => formatSignedPoint(Infinity)).toThrow(RangeError);
  });
});

describe('formatOdds', () => {
  it('writes American odds as decimal (two places) and as a fraction in lowest terms', () => {
    expect(formatOdds(225, 'american')).toBe('+225');
    expect(formatOdds(225, 'decimal')).toBe('3.25');
    expect(formatOdds(225, 'fractional')).toBe('9/4');
    expect(formatOdds(-110, 'decimal')).toBe('1.91');
    expect(formatOdds(-110, 'fractional')).toBe('10/11');
    expect(formatOdds(-200, 'fractional')).toBe('1/2');
    expect(formatOdds(100, 'fractional')).toBe('1/1');
    expect(formatOdds(-100, 'fractional')).toBe('1/1');
  });

  it('every format pays what the American odds pay, within its rounding', () => {
    for (const a of [-350, -175, -110, -105, 100, 105, 137, 225, 1200]) {
      const decimal = americanToDecimal(a);
      expect(Math.abs(Number(formatOdds(a, 'decimal')) - decimal)).toBeLessThanOrEqual(0.005);
      const [n, d] = formatOdds(a, 'fractional').split('/').map(Number) as [number, number];
      expect(1 + n / d).toBeCloseTo(decimal, 10);
    }
    // An exchange's exact after-fee odds: the fraction is of the displayed (rounded) American odds.
    expect(formatOdds(137.4, 'fractional')).toBe('137/100');
  });

  it('refuses odds that are no odds', () => {
    for (const f of ['american', 'decimal', 'fractional'] as const) expect(() => formatOdds(50, f)).toThrow(RangeError);
  });
});

describe('oddsFormatFor', () => {
  it('fractional in GB and IE, American in the US and Canada, decimal elsewhere', () => {
    expect(['GB', 'IE'].map(oddsFormatFor)).toEqual(['fractional', 'fractional']);
    expect(['US', 'CA'].map(oddsFormatFor)).toEqual(['american', 'american']);
    expect(['DE', 'FR', 'ES', 'AU', 'ZZ'].map(oddsFormatFor)).toEqual([
      'decimal',
      'decimal',
      'decimal',
      'decimal',
      'decimal',
    ]);
  });
});
