/**
 * Broad-widget ranking (pure). Each candidate gets three signals, each min-max normalized across
 * the candidates of one request to [0, 1]:
 *
 *   n(x) = (x - min) / (max - min), and 0 for everyone when max = min (the signal cannot separate them)
 *
 * - volume: 24-hour volume in USD;
 * - OI acceleration: the change in relative open-interest growth between the last two periods,
 *   (OI(t) - OI(t-P)) / OI(t-P) - (OI(t-P) - OI(t-2P)) / OI(t-2P), t = the newest sample;
 * - CTR: clicks / impressions over the window, smoothed toward the population mean with a prior of
 *   m impressions: (clicks + m * mean) / (impressions + m).
 *
 * An unknown OI acceleration (null: no open-interest history, or a zero base) is neutral, not worst:
 * it takes the median of the known candidates' values before normalization (0 when none is known).
 *
 *   score = wV * n(volume) + wA * n(oiAcceleration) + wC * n(smoothedCtr)
 *
 * Higher score ranks first; equal scores (to 1e-12) rank by operator id, ascending.
 */

export interface RankWeights {
  volume: number;
  oiAccel: number;
  ctr: number;
}

export interface CtrPrior {
  /** Population click-through rate (clicks / impressions over every operator). */
  mean: number;
  /** Prior weight, in impressions. */
  weight: number;
}

export interface RankCandidate {
  operatorId: string;
  volume24hUsd: number;
  /** null: unknown (scored as the median of the known ones). */
  oiAcceleration: number | null;
  clicks: number;
  impressions: number;
}

export interface RankedCandidate extends RankCandidate {
  rank: number;
  score: number;
  smoothedCtr: number;
  normalized: { volume: number; oiAccel: number; ctr: number };
}

export interface OiPoint {
  /** Epoch ms. */
  t: number;
  oi: number;
}

/** Min-max normalization to [0, 1]; all-equal (or empty) input maps to zeros. */
export function normalizeMinMax(values: readonly number[]): number[] {
  if (values.length === 0) return [];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min;
  return values.map((v) => (span > 0 ? (v - min) / span : 0));
}

/** (clicks + m * mean) / (impressions + m); 0 when there is neither data nor prior. */
export function smoothedCtr(clicks: number, impressions: number, prior: CtrPrior): number {
  const denominator = impressions + prior.weight;
  return denominator > 0 ? (clicks + prior.weight * prior.mean) / denominator : 0;
}

/** Total clicks / total impressions; 0 without impressions. */
export function populationCtr(counts: Iterable<{ clicks: number; impressions: number }>): number {
  let clicks = 0;
  let impressions = 0;
  for (const c of counts) {
    clicks += c.clicks;
    impressions += c.impressions;
  }
  return impressions > 0 ? clicks / impressions : 0;
}

/** The value in force at `t`: the newest sample at or before it (points sorted by time). */
function valueAt(points: readonly OiPoint[], t: number): number | undefined {
  let found: number | undefined;
  for (const p of points) {
    if (p.t > t) break;
    found = p.oi;
  }
  return found;
}

/**
 * Open-interest acceleration over periods of `periodMs`, measured back from the newest sample.
 * null (unknown) without two full periods of history or with a zero base (growth undefined).
 */
export function oiAcceleration(points: readonly OiPoint[], periodMs: number): number | null {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const latest = sorted.at(-1);
  if (!latest) return null;
  const mid = valueAt(sorted, latest.t - periodMs);
  const old = valueAt(sorted, latest.t - 2 * periodMs);
  if (mid === undefined || old === undefined || mid === 0 || old === 0) return null;
  return (latest.oi - mid) / mid - (mid - old) / old;
}

/** The median of `values` (the mean of the middle two for an even count); undefined when empty. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Unknown values replaced by the median of the known ones (all 0 when none is known). */
function neutralFill(values: ReadonlyArray<number | null>): number[] {
  const neutral = median(values.filter((v): v is number => v !== null)) ?? 0;
  return values.map((v) => v ?? neutral);
}

/** Ranks candidates by the blended score (see the module comment). Ranks start at 1. */
export function rankOperators(
  candidates: readonly RankCandidate[],
  weights: RankWeights,
  prior: CtrPrior,
): RankedCandidate[] {
  const ctrs = candidates.map((c) => smoothedCtr(c.clicks, c.impressions, prior));
  const nVol = normalizeMinMax(candidates.map((c) => c.volume24hUsd));
  const nAcc = normalizeMinMax(neutralFill(candidates.map((c) => c.oiAcceleration)));
  const nCtr = normalizeMinMax(ctrs);
  const scored = candidates.map((c, i) => {
    const normalized = { volume: nVol[i]!, oiAccel: nAcc[i]!, ctr: nCtr[i]! };
    const score =
      weights.volume * normalized.volume + weights.oiAccel * normalized.oiAccel + weights.ctr * normalized.ctr;
    return { ...c, score, smoothedCtr: ctrs[i]!, normalized };
  });
  // Rounding before comparing keeps float noise from deciding ties.
  const key = (s: number) => Math.round(s * 1e12);
  scored.sort(
    (a, b) => key(b.score) - key(a.score) || (a.operatorId < b.operatorId ? -1 : a.operatorId > b.operatorId ? 1 : 0),
  );
  return scored.map((s, i) => ({ ...s, rank: i + 1 }));
}
