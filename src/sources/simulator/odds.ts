/**
 * Probability to American odds, kept private to the simulator so it has no dependency on the
 * domain module (which formats for widgets; here we only need to produce plausible quotes).
 */

/** American odds for an implied probability: p >= 0.5 gives -100p/(1-p), else 100(1-p)/p. */
export function probToAmerican(p: number): number {
  const q = Math.min(0.99, Math.max(0.01, p));
  const a = q >= 0.5 ? Math.round((-100 * q) / (1 - q)) : Math.round((100 * (1 - q)) / q);
  // Rounding keeps |a| >= 100 (it is exactly 100 at p = 0.5), so the result is always valid.
  return a;
}

/** Rounds American odds to a bookmaker's step (5 for most US books), never into (-100, 100). */
export function roundAmerican(a: number, step: number): number {
  if (step <= 1) return a;
  const r = Math.round(a / step) * step;
  if (r > -100 && r < 100) return a < 0 ? -100 : 100;
  return r;
}
