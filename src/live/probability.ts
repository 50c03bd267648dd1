/** The fair probability that a price ends at or above a strike (driftless lognormal model). */

/** Standard normal CDF via the Abramowitz-Stegun 7.1.26 erf approximation (|error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * P(S_T >= K) = N(d2), d2 = (ln(S/K) - σ²T/2) / (σ√T), with σ² the per-second variance and T the
 * seconds left. At expiry (or with no volatility) it is 1 or 0 by where the spot stands.
 */
export function probabilityAbove(spot: number, strike: number, secondsLeft: number, variancePerSec: number): number {
  const s2t = variancePerSec * Math.max(secondsLeft, 0);
  if (s2t <= 0) return spot >= strike ? 1 : 0;
  const d2 = (Math.log(spot / strike) - s2t / 2) / Math.sqrt(s2t);
  return normalCdf(d2);
}
