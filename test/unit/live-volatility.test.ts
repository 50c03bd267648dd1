import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/sources/simulator/rng.js';
import {
  DEFAULT_EWMA,
  PRIOR_ANNUAL_VOL,
  updateVolatility,
  varianceFromAnnual,
  VolatilityStamp,
  type VolState,
} from '../../src/live/volatility.js';

/** |actual - expected| within `rel` of |expected|. */
function expectRel(actual: number, expected: number, rel = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * rel);
}

const OPTS = { timeConstantSec: 300, minIntervalSec: 0.25 };

describe('varianceFromAnnual', () => {
  it('divides the annual variance by the seconds in a 365-day year', () => {
    // 0.55^2 / (365 * 24 * 3600) = 0.3025 / 31,536,000 = 9.59221207508879e-9
    expectRel(varianceFromAnnual(0.55), 9.59221207508879e-9);
    // 1.0^2 / 31,536,000 = 3.1709791983764586e-8
    expectRel(varianceFromAnnual(1), 3.1709791983764586e-8);
    expect(varianceFromAnnual(0)).toBe(0);
  });
});

describe('updateVolatility', () => {
  const start: VolState = { variance: 1e-8, lastPrice: 100, lastMs: 0 };

  it('folds one return as a time-weighted EWMA of r^2/dt', () => {
    const s = updateVolatility(start, 101, 1000, OPTS);
    // dt = 1 s; r = ln(101/100) = 0.009950330853168092, r^2 = 9.900908408750885e-5, r^2/dt = same
    // w = exp(-1/300) = 0.9966722160545233
    // v = 0.99667221605 * 1e-8 + (1 - 0.99667221605) * 9.9009084087e-5
    //   = 9.9667221605e-9 + 3.2948084e-7 = 3.3944756264331235e-7
    expectRel(s.variance, 3.3944756264331235e-7);
    expect(s.lastPrice).toBe(101);
    expect(s.lastMs).toBe(1000);
  });

  it('folds ticks closer than minIntervalSec into one return over the true elapsed time', () => {
    const s1 = updateVolatility(start, 101, 1000, OPTS);
    // 100 ms later: under the 0.25 s minimum, so no update yet (the return is not lost, see below)
    expect(updateVolatility(s1, 100.5, 1100, OPTS)).toBe(s1);
    // 300 ms after the last update: r = ln(100.2/101) from the last update's price, dt = 0.3 s
    const s2 = updateVolatility(s1, 100.2, 1300, OPTS);
    // r = ln(100.2/101) = -0.0079523282, r^2 = 6.3239524e-5, r^2/dt = 2.1079841e-4
    // w = exp(-0.3/300) = 0.999000499833375
    // v = 0.9990005 * 3.3944756264e-7 + 0.0009995 * 2.10798265e-4 = 3.3910828e-7 + 2.1069306e-7 = 5.498013328e-7
    const r = Math.log(100.2 / 101);
    const w = Math.exp(-0.3 / 300);
    expectRel(s2.variance, w * 3.3944756264331235e-7 + (1 - w) * ((r * r) / 0.3), 1e-12);
    expectRel(s2.variance, 5.498013328e-7, 1e-8);
    expect(s2.lastMs).toBe(1300);
    expect(s2.lastPrice).toBe(100.2);
  });

  it('is unbiased at every tick spacing: within 10% of the true sigma on seeded GBM paths', () => {
    const sigmaAnnual = 0.6;
    const trueVar = varianceFromAnnual(sigmaAnnual);
    for (const spacingMs of [50, 100, 250, 1000]) {
      const rng = createRng(8_061 + spacingMs);
      const stepSd = Math.sqrt(trueVar * (spacingMs / 1000));
      // Start from a prior half the true variance: the estimate has to learn the rest.
      let price = 97_000;
      let state: VolState = { variance: trueVar / 2, lastPrice: price, lastMs: 0 };
      // 40 minutes of ticks: eight time constants, so the prior is forgotten.
      for (let t = spacingMs; t <= 2_400_000; t += spacingMs) {
        price *= Math.exp(stepSd * rng.normal() - (stepSd * stepSd) / 2);
        state = updateVolatility(state, price, t);
      }
      const estimatedSigma = Math.sqrt(state.variance);
      expect(Math.abs(estimatedSigma / Math.sqrt(trueVar) - 1), `${spacingMs} ms ticks`).toBeLessThan(0.1);
    }
  });

  it('uses the given time constant and interval floor', () => {
    const s = updateVolatility({ variance: 0, lastPrice: 200, lastMs: 5000 }, 202, 7000, {
      timeConstantSec: 10,
      minIntervalSec: 0.5,
    });
    // dt = 2 s; r = ln(1.01) = 0.009950330853168092; w = exp(-2/10) = 0.8187307530779818
    // v = 0 + (1 - 0.81873075) * 9.9009084e-5 / 2 = 0.18126925 * 4.9504542e-5 = 8.97365105549075e-6
    expectRel(s.variance, 8.97365105549075e-6);
  });

  it('defaults to a 300 s time constant and a 0.25 s floor', () => {
    expect(DEFAULT_EWMA).toEqual({ timeConstantSec: 300, minIntervalSec: 0.25 });
    // Same numbers as the two-step case above, without passing options.
    const s1 = updateVolatility(start, 101, 1000);
    expect(updateVolatility(s1, 100.5, 1100)).toBe(s1);
    expectRel(updateVolatility(s1, 100.2, 1300).variance, 5.498013328e-7, 1e-8);
  });

  it('leaves the estimate unchanged when the price does not move, apart from decay', () => {
    const s = updateVolatility(start, 100, 300_000, OPTS);
    // r = 0; dt = 300 s; w = exp(-1) = 0.36787944117144233 -> v = 0.36787944e-8
    expectRel(s.variance, 3.678794411714423e-9);
  });

  it('ignores out-of-order and same-instant ticks', () => {
    const s1 = updateVolatility(start, 101, 1000, OPTS);
    expect(updateVolatility(s1, 150, 999, OPTS)).toBe(s1);
    expect(updateVolatility(s1, 150, 1000, OPTS)).toBe(s1);
  });

  it('ignores non-positive and non-numeric prices', () => {
    for (const bad of [0, -5, Number.NaN]) {
      expect(updateVolatility(start, bad, 1000, OPTS)).toBe(start);
    }
  });
});

describe('VolatilityStamp (the feed measures, every API process reads)', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 14, 5, 0) + s * 1000).toISOString();
  const tick = (price: number, s: number, asset: 'BTC' | 'ETH' = 'BTC') => ({
    asset,
    price,
    ts: at(s),
    source: 'test',
  });

  it("stamps the prior on an asset's first tick, then the EWMA of what it has seen", () => {
    const stamp = new VolatilityStamp(OPTS);
    expect(stamp.stamp(tick(100, 0)).variance).toBe(varianceFromAnnual(PRIOR_ANNUAL_VOL.BTC));
    const second = stamp.stamp(tick(101, 1));
    const expected = updateVolatility(
      { variance: varianceFromAnnual(0.55), lastPrice: 100, lastMs: Date.parse(at(0)) },
      101,
      Date.parse(at(1)),
      OPTS,
    ).variance;
    expectRel(second.variance!, expected);
    expect(second).toMatchObject({ asset: 'BTC', price: 101, ts: at(1), source: 'test' });
    // Per asset: ETH starts from its own prior.
    expect(stamp.stamp(tick(3000, 1, 'ETH')).variance).toBe(varianceFromAnnual(PRIOR_ANNUAL_VOL.ETH));
  });

  it('an older tick carries the estimate as it stands and teaches it nothing', () => {
    const stamp = new VolatilityStamp(OPTS);
    stamp.stamp(tick(100, 0));
    const now = stamp.stamp(tick(103, 2)).variance;
    expect(stamp.stamp(tick(90, 1)).variance).toBe(now);
    expect(stamp.stamp(tick(103, 3)).variance).toBeLessThan(now!); // no return since 103: the variance decays
  });
});
