import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/sources/simulator/rng.js';
import { SimulatedWalk, simulatedPriceAt, step, type WalkState } from '../../src/sources/simulator/prices.js';

const SECONDS_PER_YEAR = 365 * 24 * 3600; // 31,536,000; sqrt = 5615.692299262843

/** A scripted random stream: fails the test if step draws more numbers than the script holds. */
function scripted(values: number[]): { next: () => number; left: () => number } {
  let i = 0;
  return {
    next: () => {
      if (i >= values.length) throw new Error(`stream exhausted after ${values.length} draws`);
      return values[i++]!;
    },
    left: () => values.length - i,
  };
}

/** A seeded uniform stream in [0, 1): the simulator's own generator. */
const mulberry = (seed: number): (() => number) => createRng(seed).next;

/** Annualized volatility of the log returns of `prices`, sampled every `dtSec`. */
function realizedVol(prices: number[], dtSec: number): number {
  let sum = 0;
  for (let i = 1; i < prices.length; i++) sum += Math.log(prices[i]! / prices[i - 1]!) ** 2;
  return Math.sqrt((sum / ((prices.length - 1) * dtSec)) * SECONDS_PER_YEAR);
}

// Box-Muller with u1 = 0.5: sqrt(-2 ln(1 - 0.5)) = sqrt(2 ln 2) = 1.1774100225154747.
// u2 = 0 -> cos(0) = 1 -> z = +1.17741; u2 = 0.5 -> cos(π) = -1 -> z = -1.17741.
// BTC 0.55/yr: sigma = 0.55 / 5615.692299262843 = 9.79398390599494e-5 per sqrt(second).

describe('step: one scripted step follows the GBM formula', () => {
  it('moves by exp(-σ²dt/2 + σ√dt z), rounded to cents', () => {
    // draws: 0.9 = burst check (0.9 >= 0.25/3600: no burst), u1 = 0.5, u2 = 0
    const s = scripted([0.9, 0.5, 0]);
    const out = step({ price: 97_000, burstLeftSec: 0 }, 0.55, 0.25, s.next);
    // σ√dt = 9.79398e-5 * 0.5 = 4.896992e-5; z σ√dt = 5.765767e-5; -σ²dt/2 = -1.199e-9
    // x = 5.76564750e-5; 97000 * e^x = 97000 * 1.0000576581 = 97005.5928 -> 97005.59
    expect(out).toEqual({ price: 97_005.59, burstLeftSec: 0 });
    expect(s.left()).toBe(0);
  });

  it('scales with the square root of the interval', () => {
    // dt = 60 s: burst check 0.9 >= 60/3600 = 0.0167, no burst
    const s = scripted([0.9, 0.5, 0]);
    const out = step({ price: 97_000, burstLeftSec: 0 }, 0.55, 60, s.next);
    // σ√60 = 9.79398e-5 * 7.745967 = 7.586400e-4; × 1.1774100 = 8.932324e-4; -σ²·60/2 = -2.87766e-7
    // x = 8.929411e-4; 97000 * e^x = 97000 * 1.000893340 = 97086.654 -> 97086.65
    expect(out.price).toBe(97_086.65);
  });

  it('moves down for a negative draw', () => {
    const s = scripted([0.9, 0.5, 0.5]);
    const out = step({ price: 97_000, burstLeftSec: 0 }, 0.55, 0.25, s.next);
    // x = -5.765767e-5 - 1.199e-9 = -5.765887e-5; 97000 * e^x = 97000 * 0.99994234279 = 96994.407 -> 96994.41
    expect(out.price).toBe(96_994.41);
  });

  it('leaves the price unchanged, up to the -σ²dt/2 drift, for z = 0', () => {
    // u2 = 0.25 -> cos(π/2) ≈ 6e-17 -> z ≈ 0; 97000 * e^(-1.2e-9) = 96999.99988 -> 97000.00
    const out = step({ price: 97_000, burstLeftSec: 0 }, 0.55, 0.25, scripted([0.9, 0.5, 0.25]).next);
    expect(out.price).toBe(97_000);
  });

  it('always returns whole cents', () => {
    const next = mulberry(7);
    let st: WalkState = { price: 185, burstLeftSec: 0 };
    for (let i = 0; i < 2000; i++) {
      st = step(st, 0.9, 0.25, next);
      expect(Math.abs(st.price * 100 - Math.round(st.price * 100))).toBeLessThan(1e-6);
    }
  });
});

describe('step: bursts', () => {
  it('starts a burst when the check draw is below dt/3600, and triples sigma', () => {
    // draws: 0 < 0.25/3600 -> burst; duration 10 + 0.5 * 30 = 25 s; u1 = 0.5, u2 = 0 -> z = +1.17741
    const s = scripted([0, 0.5, 0.5, 0]);
    const out = step({ price: 97_000, burstLeftSec: 0 }, 0.55, 0.25, s.next);
    // 3σ√dt = 3 * 4.896992e-5 = 1.4690976e-4; × 1.17741 = 1.7297302e-4; -(3σ)²dt/2 = -1.0791e-8
    // x = 1.72962231e-4; 97000 * e^x = 97000 * 1.00017297719 = 97016.779 -> 97016.78
    expect(out).toEqual({ price: 97_016.78, burstLeftSec: 25 });
    expect(s.left()).toBe(0);
  });

  it('counts a running burst down without drawing a new burst check', () => {
    // burstLeftSec 25 - 0.25 = 24.75 > 0: only u1, u2 are drawn (the script would run out otherwise)
    const s = scripted([0.5, 0.5]);
    const out = step({ price: 97_016.78, burstLeftSec: 25 }, 0.55, 0.25, s.next);
    // z = -1.17741, tripled: x = -1.7297302e-4 - 1.0791e-8 = -1.72983813e-4
    // 97016.78 * e^x = 97016.78 * 0.99982703115 = 96999.9991 -> 97000.00
    expect(out).toEqual({ price: 97_000, burstLeftSec: 24.75 });
    expect(s.left()).toBe(0);
  });

  it('ends the burst when the remaining time runs out, and checks for a new one', () => {
    // 0.1 - 0.25 -> 0: back to normal sigma; the check draw 0.9 starts no new burst
    const s = scripted([0.9, 0.5, 0]);
    const out = step({ price: 97_000, burstLeftSec: 0.1 }, 0.55, 0.25, s.next);
    // Same as the plain step: 97005.59 (not the tripled 97016.78)
    expect(out).toEqual({ price: 97_005.59, burstLeftSec: 0 });
    expect(s.left()).toBe(0);
  });

  it('lasts between 10 and 40 seconds', () => {
    expect(step({ price: 100, burstLeftSec: 0 }, 0.55, 0.25, scripted([0, 0, 0.5, 0]).next).burstLeftSec).toBe(10);
    // 10 + 0.999 * 30 = 39.97
    expect(
      step({ price: 100, burstLeftSec: 0 }, 0.55, 0.25, scripted([0, 0.999, 0.5, 0]).next).burstLeftSec,
    ).toBeCloseTo(39.97, 10);
  });
});

describe('step: realized volatility over many steps', () => {
  const DT = 0.25;
  const N = 20_000;

  it('matches the input volatility when no burst fires', () => {
    // Without bursts every step draws exactly 3 numbers: [burst check, u1, u2]. Answer every burst
    // check with 0.999 (never below 0.25/3600) and feed u1, u2 from a seeded mulberry32.
    const rand = mulberry(1);
    let calls = 0;
    const next = () => (calls++ % 3 === 0 ? 0.999 : rand());
    let st: WalkState = { price: 97_000, burstLeftSec: 0 };
    const prices = [st.price];
    let maxBurst = 0;
    for (let i = 0; i < N; i++) {
      st = step(st, 0.55, DT, next);
      maxBurst = Math.max(maxBurst, st.burstLeftSec);
      prices.push(st.price);
    }
    // The draw pattern held: no burst ever started, and exactly 3 draws per step.
    expect(maxBurst).toBe(0);
    expect(calls).toBe(3 * N);
    // Standard error of a volatility estimate from N squared returns ≈ σ/√(2N) = 0.55/200 = 0.00275;
    // the band is about ten standard errors wide. Rounding to cents at ~97,000 is negligible.
    expect(Math.abs(realizedVol(prices, DT) - 0.55)).toBeLessThan(0.03);
  });

  it('triples the realized volatility while a burst runs', () => {
    // A burst that outlasts the run: no burst checks, two draws per step.
    const rand = mulberry(999);
    let st: WalkState = { price: 97_000, burstLeftSec: 1e9 };
    const prices = [st.price];
    for (let i = 0; i < N; i++) {
      st = step(st, 0.55, DT, rand);
      prices.push(st.price);
    }
    // 3 * 0.55 = 1.65; standard error ≈ 1.65/200 = 0.008
    expect(Math.abs(realizedVol(prices, DT) - 1.65)).toBeLessThan(0.09);
  });
});

describe('SimulatedWalk: the price as a function of (seed, time)', () => {
  const T = Date.parse('2026-11-23T11:07:31.250Z');
  const HOUR = 3_600_000;

  it('is deterministic per seed and time, and differs between seeds and assets', () => {
    expect(simulatedPriceAt(7, 'BTC', T)).toBe(simulatedPriceAt(7, 'BTC', T));
    expect(new SimulatedWalk(7, 'BTC').at(T)).toBe(simulatedPriceAt(7, 'BTC', T));
    expect(simulatedPriceAt(8, 'BTC', T)).not.toBe(simulatedPriceAt(7, 'BTC', T));
    expect(simulatedPriceAt(7, 'ETH', T)).not.toBe(simulatedPriceAt(7, 'BTC', T));
    // Constant within a 100 ms step, whole cents, near the asset's level.
    const p = simulatedPriceAt(7, 'BTC', T);
    expect(simulatedPriceAt(7, 'BTC', T + 49)).toBe(p);
    expect(Math.abs(p * 100 - Math.round(p * 100))).toBeLessThan(1e-6);
    expect(p).toBeGreaterThan(97_000 * 0.7);
    expect(p).toBeLessThan(97_000 * 1.3);
  });

  it('gives the same price whatever was asked before (forward, backward, across hours)', () => {
    const walk = new SimulatedWalk(3, 'SOL');
    const times = [T, T + 250, T - 60_000, T + HOUR, T - 2 * HOUR, T + 5];
    const asked = times.map((t) => walk.at(t));
    expect(asked).toEqual(times.map((t) => simulatedPriceAt(3, 'SOL', t)));
  });

  it('is continuous across hours and days: no jump at the boundary bigger than a few steps move', () => {
    const midnight = Date.parse('2026-11-24T00:00:00.000Z');
    for (const boundary of [midnight, midnight + HOUR, midnight + 13 * HOUR]) {
      const walk = new SimulatedWalk(11, 'BTC');
      const before = walk.at(boundary - 100);
      const at = walk.at(boundary);
      // One 100 ms step at BTC's volatility is ~3e-5 in log price (1e-4 in a burst); a jump between
      // independently drawn levels would be ~1e-2.
      expect(Math.abs(Math.log(at / before))).toBeLessThan(1e-3);
    }
  });

  it('moves like the asset over an hour: realized volatility near its annual figure', () => {
    const walk = new SimulatedWalk(5, 'ETH');
    const start = Date.parse('2026-11-23T09:00:00.000Z');
    const prices: number[] = [];
    for (let t = start; t < start + HOUR; t += 1_000) prices.push(walk.at(t));
    // ETH 0.70; one hour of 1 s returns gives a standard error of ~0.70/85; bursts add some.
    const vol = realizedVol(prices, 1);
    expect(vol).toBeGreaterThan(0.55);
    expect(vol).toBeLessThan(1.2);
  });
});
