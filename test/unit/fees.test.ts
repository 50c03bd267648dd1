import { describe, expect, it } from 'vitest';
import { afterFeePrice, FEE_SCHEDULES, feeSchedule, validateFeeSchedules } from '../../src/catalog/fee-schedules.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { priceAfterFee, takerFee, type FeeSchedule } from '../../src/domain/fees.js';
import { probabilityToAmerican } from '../../src/domain/odds.js';

const kalshi = feeSchedule('kalshi')!;
const polymarket = feeSchedule('polymarket')!;
const limitless = feeSchedule('limitless')!;

describe('Kalshi: round_up(0.07 × C × P × (1 − P)) to the cent', () => {
  it('charges $1.75 for 100 contracts at 0.51 (1.7493 rounded up)', () => {
    // 0.07 × 100 × 0.51 × 0.49 = 1.7493 → 1.75
    expect(takerFee(kalshi, undefined, 0.51, 100)).toBe(1.75);
  });

  it('does not push an exact cent up through float noise', () => {
    // 0.07 × 100 × 0.5 × 0.5 = 1.75 exactly (1.7500000000000002 in floats)
    expect(takerFee(kalshi, undefined, 0.5, 100)).toBe(1.75);
  });

  it('rounds a one-contract fee up to a whole cent', () => {
    // 0.07 × 0.51 × 0.49 = 0.017493 → 0.02
    expect(takerFee(kalshi, undefined, 0.51, 1)).toBe(0.02);
    // 0.07 × 0.05 × 0.95 = 0.003325 → 0.01
    expect(takerFee(kalshi, undefined, 0.05, 1)).toBe(0.01);
  });

  it('turns an ask of 0.51 into 0.5275 per contract, about -112 American (not -104)', () => {
    const after = priceAfterFee(kalshi, 'sports', 0.51);
    expect(after).toBe(0.5275);
    // -100 × 0.5275 / 0.4725 = -111.64 (shown -112); before fees -100 × 0.51 / 0.49 = -104.08 (shown -104)
    expect(probabilityToAmerican(after)).toBeCloseTo(-111.6402, 4);
    expect(probabilityToAmerican(0.51)).toBeCloseTo(-104.0816, 4);
  });
});

describe('Polymarket: C × feeRate × p × (1 − p), rate by category, 5 decimals', () => {
  it('uses the sports rate 0.03', () => {
    // 100 × 0.03 × 0.51 × 0.49 = 0.7497 → 0.007497 per contract
    expect(takerFee(polymarket, 'sports', 0.51, 100)).toBeCloseTo(0.7497, 10);
    expect(priceAfterFee(polymarket, 'sports', 0.51)).toBe(0.517497);
  });

  it('uses the crypto rate 0.07', () => {
    // 10 × 0.07 × 0.65 × 0.35 = 0.15925
    expect(takerFee(polymarket, 'crypto', 0.65, 10)).toBeCloseTo(0.15925, 10);
  });

  it('uses politics 0.04 and economics 0.05', () => {
    // 100 × 0.04 × 0.3 × 0.7 = 0.84; 100 × 0.05 × 0.3 × 0.7 = 1.05
    expect(takerFee(polymarket, 'politics', 0.3, 100)).toBeCloseTo(0.84, 10);
    expect(takerFee(polymarket, 'economics', 0.3, 100)).toBeCloseTo(1.05, 10);
  });

  it('falls back to the default rate when the category is unknown', () => {
    expect(takerFee(polymarket, undefined, 0.3, 100)).toBeCloseTo(1.05, 10);
  });

  it('rounds to 5 decimals', () => {
    // 1 × 0.03 × 0.999 × 0.001 = 0.00002997 → 0.00003
    expect(takerFee(polymarket, 'sports', 0.999, 1)).toBe(0.00003);
  });
});

describe('Limitless: a percentage of notional sliding from 3.00% to 0.40%, paid in contracts', () => {
  it('costs price / (1 − fraction) per contract received', () => {
    // at 0.5: 3% − 2.6% × 0.5 = 1.7%; 0.5 / 0.983 = 0.508647
    expect(priceAfterFee(limitless, 'crypto', 0.5)).toBe(0.508647);
    // at 0.2: 3% − 2.6% × 0.2 = 2.48%; 0.2 / 0.9752 = 0.205086
    expect(priceAfterFee(limitless, 'crypto', 0.2)).toBe(0.205086);
  });
});

describe('venues without a fee', () => {
  it('leaves ForecastEx prices and sportsbook prices as they are', () => {
    expect(afterFeePrice('forecastex', 'economics', 0.42)).toBe(0.42);
    expect(afterFeePrice('draftkings', 'sports', 0.42)).toBe(0.42);
    expect(priceAfterFee(undefined, undefined, 0.42)).toBe(0.42);
  });
});

describe('schedules as data', () => {
  it('covers every exchange and crypto operator (and Betfair, an exchange quoted in odds), with a source and an as-of date', () => {
    const charged = (op: (typeof OPERATORS)[number]) => op.kind !== 'sportsbook' || op.id === 'betfair';
    for (const op of OPERATORS) {
      const s = feeSchedule(op.id);
      if (!charged(op)) expect(s, op.id).toBeUndefined();
      else {
        expect(s?.source.length).toBeGreaterThan(10);
        expect(s?.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    expect(FEE_SCHEDULES.length).toBe(OPERATORS.filter(charged).length);
  });

  it("takes Betfair's commission from winnings only: decimal d pays 1 + (d - 1) x 0.95", () => {
    const betfair = feeSchedule('betfair')!;
    // Backing at even money (p = 0.5) on 100 units: a win pays 50 of winnings, 5 % of it is 2.50.
    expect(takerFee(betfair, 'sports', 0.5, 100)).toBeCloseTo(2.5, 12);
    // 0.5 / (1 - 0.025) = 0.512821: decimal 1.95 = 1 + 1 × 0.95.
    expect(priceAfterFee(betfair, 'sports', 0.5)).toBe(0.512821);
    // Back odds 3.0 (p = 1/3): 1 + 2 × 0.95 = 2.9 → p = 0.344828.
    expect(priceAfterFee(betfair, 'sports', 1 / 3)).toBe(0.344828);
  });

  it('never brings an after-fee price to 1 or beyond', () => {
    for (const s of FEE_SCHEDULES) {
      for (const p of [0.01, 0.5, 0.99, 0.999]) {
        const after = priceAfterFee(s, 'crypto', p);
        expect(after).toBeGreaterThanOrEqual(p);
        expect(after).toBeLessThan(1);
      }
    }
  });

  it('fails start-up on a bad schedule, naming each problem', () => {
    const bad: FeeSchedule[] = [
      ...FEE_SCHEDULES.filter((s) => s.operatorId !== 'limitless'),
      { ...kalshi, formula: { kind: 'variance', rates: { default: 0.7 } }, source: 'x', asOf: 'today' },
      { ...kalshi, operatorId: 'nobody' },
    ];
    expect(() => validateFeeSchedules(bad)).toThrow(/duplicate fee schedule for kalshi/);
    expect(() => validateFeeSchedules(bad)).toThrow(/kalshi: rate default=0.7 out of range/);
    expect(() => validateFeeSchedules(bad)).toThrow(/kalshi: needs a source and an as-of date/);
    expect(() => validateFeeSchedules(bad)).toThrow(/fee schedule for unknown operator nobody/);
    expect(() => validateFeeSchedules(bad)).toThrow(/crypto operator limitless has no fee schedule/);
    expect(validateFeeSchedules(FEE_SCHEDULES).size).toBe(FEE_SCHEDULES.length);
  });

  it('rejects prices outside (0, 1) and non-integer sizes', () => {
    const s: FeeSchedule = kalshi;
    expect(() => takerFee(s, undefined, 0, 100)).toThrow(RangeError);
    expect(() => takerFee(s, undefined, 1, 100)).toThrow(RangeError);
    expect(() => takerFee(s, undefined, 0.5, 1.5)).toThrow(RangeError);
  });
});
