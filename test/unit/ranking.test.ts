import { describe, expect, it } from 'vitest';
import {
  normalizeMinMax,
  oiAcceleration,
  populationCtr,
  rankOperators,
  smoothedCtr,
  type RankCandidate,
} from '../../src/domain/ranking.js';

const W = { volume: 0.5, oiAccel: 0.2, ctr: 0.3 };
const cand = (
  operatorId: string,
  volume24hUsd: number,
  oiAcceleration: number | null = 0,
  clicks = 0,
  impressions = 0,
): RankCandidate => ({
  operatorId,
  volume24hUsd,
  oiAcceleration,
  clicks,
  impressions,
});

describe('normalizeMinMax', () => {
  it('maps min to 0 and max to 1; all-equal and empty input to zeros', () => {
    expect(normalizeMinMax([10, 20, 30])).toEqual([0, 0.5, 1]);
    expect(normalizeMinMax([-1, 1])).toEqual([0, 1]);
    expect(normalizeMinMax([5, 5, 5])).toEqual([0, 0, 0]);
    expect(normalizeMinMax([7])).toEqual([0]);
    expect(normalizeMinMax([])).toEqual([]);
  });
});

describe('CTR smoothing', () => {
  it('pulls small samples to the population mean', () => {
    const prior = { mean: 0.02, weight: 1000 };
    // (clicks + 1000 * 0.02) / (impressions + 1000)
    expect(smoothedCtr(5, 10, prior)).toBeCloseTo(25 / 1010, 12);
    expect(smoothedCtr(300, 10_000, prior)).toBeCloseTo(320 / 11_000, 12);
    // ten impressions with five clicks (50%) stay below an operator at 3% over ten thousand
    expect(smoothedCtr(5, 10, prior)).toBeLessThan(smoothedCtr(300, 10_000, prior));
    expect(smoothedCtr(0, 0, prior)).toBeCloseTo(0.02, 12);
    expect(smoothedCtr(0, 0, { mean: 0, weight: 0 })).toBe(0);
    expect(smoothedCtr(3, 10, { mean: 0.5, weight: 0 })).toBeCloseTo(0.3, 12);
  });

  it('population CTR is total clicks over total impressions', () => {
    expect(
      populationCtr([
        { clicks: 1, impressions: 100 },
        { clicks: 9, impressions: 400 },
      ]),
    ).toBeCloseTo(0.02, 12);
    expect(populationCtr([])).toBe(0);
  });
});

describe('oiAcceleration', () => {
  const H = 3_600_000;
  it('is the change in relative OI growth between the last two periods', () => {
    // 100 → 110 (+10%) → 132 (+20%): acceleration 0.2 - 0.1 = 0.1
    const points = [
      { t: 0, oi: 100 },
      { t: H, oi: 110 },
      { t: 2 * H, oi: 132 },
    ];
    expect(oiAcceleration(points, H)).toBeCloseTo(0.1, 12);
    // order does not matter; the value in force at a time is the newest sample at or before it
    expect(oiAcceleration([...points].reverse(), H)).toBeCloseTo(0.1, 12);
    const withNoise = [...points, { t: H / 2, oi: 999 }, { t: 1.5 * H, oi: 999 }];
    expect(oiAcceleration(withNoise, H)).toBeCloseTo(0.1, 12);
    // decelerating growth is negative: +20% then +10%
    expect(
      oiAcceleration(
        [
          { t: 0, oi: 100 },
          { t: H, oi: 120 },
          { t: 2 * H, oi: 132 },
        ],
        H,
      ),
    ).toBeCloseTo(-0.1, 12);
  });

  it('is unknown (null) without two full periods of history or with a zero base', () => {
    expect(oiAcceleration([], H)).toBeNull();
    expect(
      oiAcceleration(
        [
          { t: H, oi: 110 },
          { t: 2 * H, oi: 132 },
        ],
        H,
      ),
    ).toBeNull();
    expect(
      oiAcceleration(
        [
          { t: 0, oi: 0 },
          { t: H, oi: 10 },
          { t: 2 * H, oi: 20 },
        ],
        H,
      ),
    ).toBeNull();
  });
});

describe('rankOperators', () => {
  it('scores an operator without open-interest history as neutral: the median of the known ones', () => {
    const prior = { mean: 0, weight: 0 };
    const oiOnly = { volume: 0, oiAccel: 1, ctr: 0 };
    // known: -0.1, 0.1, 0.3 → median 0.1, n = (0.1 - -0.1) / 0.4 = 0.5
    const ranked = rankOperators(
      [cand('a', 1, -0.1), cand('b', 1, 0.3), cand('c', 1, 0.1), cand('new', 1, null)],
      oiOnly,
      prior,
    );
    const n = new Map(ranked.map((r) => [r.operatorId, r.normalized.oiAccel]));
    expect(n.get('new')).toBeCloseTo(0.5, 12);
    expect(n.get('new')).toBe(n.get('c'));
    // not last, as a 0 would have made it, and not first
    expect(ranked.map((r) => r.operatorId)).toEqual(['b', 'c', 'new', 'a']);
    // an even count takes the mean of the middle two: -0.1, 0.3 → 0.1 → n 0.5
    const even = rankOperators([cand('a', 1, -0.1), cand('b', 1, 0.3), cand('x', 1, null)], oiOnly, prior);
    expect(even.find((r) => r.operatorId === 'x')!.normalized.oiAccel).toBeCloseTo(0.5, 12);
    // nobody known: the signal cannot separate anyone
    expect(
      rankOperators([cand('a', 1, null), cand('b', 1, null)], oiOnly, prior).map((r) => r.normalized.oiAccel),
    ).toEqual([0, 0]);
  });

  it('blends the normalized signals with the weights (hand-computed)', () => {
    const prior = { mean: 0, weight: 0 }; // raw CTR, for easy arithmetic
    const ranked = rankOperators(
      [cand('a', 100, 0.3, 2, 100), cand('b', 300, 0.1, 1, 100), cand('c', 200, -0.1, 4, 100)],
      W,
      prior,
    );
    // volume n: a 0, b 1, c 0.5; oi n: a 1, b 0.5, c 0; ctr (0.02, 0.01, 0.04) n: a 1/3, b 0, c 1
    // a: 0 + 0.2 + 0.1 = 0.3; b: 0.5 + 0.1 + 0 = 0.6; c: 0.25 + 0 + 0.3 = 0.55
    expect(ranked.map((r) => [r.operatorId, r.rank])).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    expect(ranked.map((r) => r.score)).toEqual([
      expect.closeTo(0.6, 12),
      expect.closeTo(0.55, 12),
      expect.closeTo(0.3, 12),
    ]);
    expect(ranked[2]!.normalized).toEqual({ volume: 0, oiAccel: 1, ctr: expect.closeTo(1 / 3, 12) });
  });

  it('breaks ties by operator id and handles all-equal signals', () => {
    const prior = { mean: 0.02, weight: 1000 };
    const ranked = rankOperators([cand('zeta', 50), cand('alpha', 50), cand('mid', 50)], W, prior);
    expect(ranked.map((r) => r.operatorId)).toEqual(['alpha', 'mid', 'zeta']);
    expect(ranked.every((r) => r.score === 0)).toBe(true);
    expect(rankOperators([], W, prior)).toEqual([]);
    // float noise does not decide a tie: 0.1 + 0.2 vs 0.3
    const noisy = rankOperators(
      [cand('y', 1, 0, 0, 0), cand('x', 0, 1, 0, 0)],
      { volume: 0.30000000000000004, oiAccel: 0.3, ctr: 0 },
      prior,
    );
    expect(noisy.map((r) => r.operatorId)).toEqual(['x', 'y']);
  });

  it('enough clicks move an operator up; a handful of impressions does not', () => {
    const prior = (cs: RankCandidate[]) => ({ mean: populationCtr(cs), weight: 1000 });
    const base = [cand('big', 1000, 0, 200, 10_000), cand('small', 600, 0, 200, 10_000)];
    expect(rankOperators(base, W, prior(base))[0]!.operatorId).toBe('big');
    // small: 10 impressions at 100% CTR barely moves its smoothed CTR
    const lucky = [base[0]!, cand('small', 600, 0, 210, 10_010)];
    const luckyRanked = rankOperators(lucky, W, prior(lucky));
    expect(luckyRanked[0]!.operatorId).toBe('big');
    // small: a sustained 6% CTR over 10,000 impressions against big's 2% → ctr n 1 vs 0:
    // big 0.5 * 1 = 0.5; small 0.5 * 0 + 0.3 * 1 = 0.3 → still second (volume weight dominates)...
    const strong = [base[0]!, cand('small', 600, 0, 600, 10_000)];
    expect(rankOperators(strong, W, prior(strong))[0]!.operatorId).toBe('big');
    // ...until volume is close: big 1000 vs small 990 among a third at 0: big 0.5, small 0.495 + 0.3
    const close = [
      cand('big', 1000, 0, 200, 10_000),
      cand('small', 990, 0, 600, 10_000),
      cand('tiny', 0, 0, 200, 10_000),
    ];
    const closeRanked = rankOperators(close, W, prior(close));
    expect(closeRanked.map((r) => r.operatorId)).toEqual(['small', 'big', 'tiny']);
  });
});
