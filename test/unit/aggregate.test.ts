import { describe, it, expect } from 'vitest';
import { roundTo, volumeWeightedProbability } from '../../src/domain/aggregate.js';

describe('roundTo', () => {
  it('rounds a written half up even when the float is just below it', () => {
    // 1.005 * 100 is 100.49999999999999 in floats; the decimal reading is 100.5.
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(1.255, 2)).toBe(1.26);
    expect(roundTo(0.575 * 100, 0)).toBe(57); // 57.49999999999999 is really below the half
  });

  it('rounds halves away from zero on both sides', () => {
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(0.45, 1)).toBe(0.5);
  });

  it('leaves values below the half alone and keeps exact values', () => {
    expect(roundTo(1.0049, 2)).toBe(1);
    expect(roundTo(12.34, 2)).toBe(12.34);
    expect(roundTo(7, 3)).toBe(7);
  });

  it('never returns negative zero', () => {
    expect(Object.is(roundTo(-0.004, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
  });

  it('handles numbers whose string form has an exponent', () => {
    expect(roundTo(1.5e-7, 6)).toBe(0); // 0.00000015 → 0.000000
    expect(roundTo(2.5e-7, 7)).toBe(3e-7);
    expect(roundTo(1e21, 2)).toBe(1e21);
  });

  it('rounds to tens with negative decimals', () => {
    expect(roundTo(1250, -2)).toBe(1300);
  });

  it('rejects non-finite values and fractional decimals', () => {
    expect(() => roundTo(Number.NaN, 2)).toThrow(RangeError);
    expect(() => roundTo(Infinity, 2)).toThrow(RangeError);
    expect(() => roundTo(1, 1.5)).toThrow(RangeError);
  });
});

describe('volumeWeightedProbability', () => {
  it('weights YES prices by 24h volume', () => {
    // (0.60 * 3000 + 0.70 * 1000) / 4000 = (1800 + 700) / 4000 = 0.625
    const p = volumeWeightedProbability([
      { yesPrice: 0.6, volume24hUsd: 3000 },
      { yesPrice: 0.7, volume24hUsd: 1000 },
    ]);
    expect(p).toBeCloseTo(0.625, 12);
  });

  it('ignores a zero-volume quote when others traded', () => {
    const p = volumeWeightedProbability([
      { yesPrice: 0.4, volume24hUsd: 500 },
      { yesPrice: 0.9, volume24hUsd: 0 },
    ]);
    expect(p).toBeCloseTo(0.4, 12);
  });

  it('falls back to the plain mean when nothing traded', () => {
    // (0.2 + 0.3 + 0.7) / 3 = 0.4
    const p = volumeWeightedProbability([
      { yesPrice: 0.2, volume24hUsd: 0 },
      { yesPrice: 0.3, volume24hUsd: 0 },
      { yesPrice: 0.7, volume24hUsd: 0 },
    ]);
    expect(p).toBeCloseTo(0.4, 12);
  });

  it('returns the single price for one quote', () => {
    expect(volumeWeightedProbability([{ yesPrice: 0.33, volume24hUsd: 10 }])).toBe(0.33);
  });

  it('throws on empty input and on invalid quotes', () => {
    expect(() => volumeWeightedProbability([])).toThrow(RangeError);
    expect(() => volumeWeightedProbability([{ yesPrice: 1, volume24hUsd: 1 }])).toThrow(RangeError);
    expect(() => volumeWeightedProbability([{ yesPrice: 0.5, volume24hUsd: -1 }])).toThrow(RangeError);
    expect(() => volumeWeightedProbability([{ yesPrice: 0.5, volume24hUsd: Number.NaN }])).toThrow(RangeError);
  });
});

describe('roundTo against the decimal string shift it is defined by', () => {
  // The definition: move the decimal point through the shortest decimal string, round, move it back.
  const shift = (n: number, places: number) => {
    const [mantissa, exponent] = String(n).split('e');
    return Number(`${mantissa}e${Number(exponent ?? 0) + places}`);
  };
  const byDefinition = (value: number, decimals: number) => {
    const m = shift(Math.round(shift(Math.abs(value), decimals)), -decimals);
    return m === 0 ? 0 : value < 0 ? -m : m;
  };
  // A seeded generator: the same cases on every run, so a failure can be replayed.
  let seed = 20261202;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

  it('agrees on written halves, their neighbours and arbitrary doubles, at every precision', () => {
    const cases: Array<[number, number]> = [];
    for (let i = 0; i < 20_000; i++) {
      const decimals = Math.floor(random() * 14) - 2;
      const digits = Math.floor(random() * 10);
      // A written half at `decimals` (k + 0.5 units), a value one unit of its last digit away, and any double.
      const half = (Math.floor(random() * 10 ** Math.min(digits, 8)) + 0.5) / 10 ** decimals;
      const near = half + (random() < 0.5 ? -1 : 1) * 10 ** -(decimals + 1 + Math.floor(random() * 8));
      const any = (random() - 0.5) * 10 ** (Math.floor(random() * 12) - 4);
      cases.push([half, decimals], [-half, decimals], [near, decimals], [any, decimals], [any * 1e12, decimals]);
    }
    const wrong = cases.filter(([v, d]) => !Object.is(roundTo(v, d), byDefinition(v, d)));
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('agrees on prices, volumes and odds as widgets round them', () => {
    for (let cents = 1; cents < 100; cents++)
      for (const fee of [0, 0.07, 0.0175]) {
        const price = cents / 100 + fee * (cents / 100) * (1 - cents / 100);
        for (const d of [0, 1, 2, 3, 4]) {
          expect(roundTo(price, d)).toBe(byDefinition(price, d));
          expect(roundTo(price * 100, d)).toBe(byDefinition(price * 100, d));
          expect(roundTo(1 / price, d)).toBe(byDefinition(1 / price, d));
        }
      }
  });
});
