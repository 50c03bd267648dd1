import { describe, expect, it } from 'vitest';
import { normalCdf, probabilityAbove } from '../../src/live/probability.js';

describe('normalCdf', () => {
  // Reference values: Φ(x) = (1 + erf(x/√2)) / 2 from standard tables.
  it.each([
    [0, 0.5],
    [1, 0.8413447460685429],
    [-1, 0.15865525393145707],
    [-1.96, 0.024997895148220428],
    [1.96, 0.9750021048517796],
    [2.326, 0.9899907246591324],
    [-3, 0.0013498980316301035],
    [0.5, 0.6914624612740131],
  ])('N(%s) = %s within 1e-6', (x, expected) => {
    expect(Math.abs(normalCdf(x) - expected)).toBeLessThan(1e-6);
  });

  it('is symmetric: N(x) + N(-x) = 1', () => {
    for (const x of [0.1, 0.7, 1.3, 2.5, 4]) expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 12);
  });

  it('tends to 0 and 1 in the tails and is monotone', () => {
    expect(normalCdf(-10)).toBeLessThan(1e-12);
    expect(normalCdf(10)).toBeGreaterThan(1 - 1e-12);
    let prev = -1;
    for (let x = -6; x <= 6; x += 0.25) {
      const v = normalCdf(x);
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
  });
});

describe('probabilityAbove', () => {
  it('matches a hand-computed d2', () => {
    // S = 100.5, K = 100, σ² = 1e-8 /s, T = 300 s
    // σ²T = 3e-6, σ√T = sqrt(3e-6) = 0.0017320508075688774
    // ln(S/K) = ln(1.005) = 0.004987541511038968
    // d2 = (0.004987541511038968 - 1.5e-6) / 0.0017320508075688774 = 2.8786924085889964
    // N(2.8786924) = 0.9980033619788607
    const p = probabilityAbove(100.5, 100, 300, 1e-8);
    expect(Math.abs(p - 0.9980033619788607)).toBeLessThan(1e-6);
  });

  it('is the mirror image below the strike', () => {
    // S = 99.5, K = 100: ln(0.995) = -0.005012541823544286
    // d2 = (-0.005012541823544286 - 1.5e-6) / 0.0017320508075688774 = -2.8948583965513355
    // N(-2.8948584) = 0.001896648037958859
    const p = probabilityAbove(99.5, 100, 300, 1e-8);
    expect(Math.abs(p - 0.001896648037958859)).toBeLessThan(1e-6);
  });

  it('is slightly under one half at the money (the -σ²T/2 term)', () => {
    // d2 = (0 - 1.5e-6) / 0.0017320508 = -σ√T/2 = -0.0008660254037844387
    // N(-0.00086602540) = 0.4996545058937154
    const p = probabilityAbove(100, 100, 300, 1e-8);
    expect(p).toBeLessThan(0.5);
    expect(Math.abs(p - 0.4996545058937154)).toBeLessThan(1e-6);
  });

  it('is 1 or 0 at expiry, by where the spot stands (at the strike counts as above)', () => {
    expect(probabilityAbove(100.01, 100, 0, 1e-8)).toBe(1);
    expect(probabilityAbove(100, 100, 0, 1e-8)).toBe(1);
    expect(probabilityAbove(99.99, 100, 0, 1e-8)).toBe(0);
    // Past expiry (negative seconds) behaves like expiry.
    expect(probabilityAbove(99.99, 100, -5, 1e-8)).toBe(0);
    expect(probabilityAbove(100.01, 100, -5, 1e-8)).toBe(1);
  });

  it('is 1 or 0 with no volatility', () => {
    expect(probabilityAbove(101, 100, 300, 0)).toBe(1);
    expect(probabilityAbove(99, 100, 300, 0)).toBe(0);
  });

  it('moves towards one half as time to expiry grows', () => {
    const near = probabilityAbove(100.5, 100, 30, 1e-8);
    const far = probabilityAbove(100.5, 100, 3000, 1e-8);
    expect(near).toBeGreaterThan(far);
    expect(far).toBeGreaterThan(0.5);
  });
});
