/**
 * Volatility from recent ticks: a time-weighted EWMA of squared log returns per second. Weighting by
 * elapsed time (not tick count) keeps the estimate honest when tick rates change in bursts.
 */

export interface VolState {
  /** Variance of log price per second. */
  variance: number;
  lastPrice: number;
  lastMs: number;
}

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/** Per-second variance from an annualized volatility (0.6 = 60%/yr). */
export function varianceFromAnnual(annualVol: number): number {
  return (annualVol * annualVol) / SECONDS_PER_YEAR;
}

export interface EwmaOptions {
  /** Seconds for a past observation's weight to fall to 1/e. */
  timeConstantSec: number;
  /** Shortest interval credited to one return: sub-second ticks carry microstructure noise. */
  minIntervalSec: number;
}

export const DEFAULT_EWMA: EwmaOptions = { timeConstantSec: 300, minIntervalSec: 0.25 };

/** Folds one tick into the estimate; out-of-order or non-positive prices are ignored. */
export function updateVolatility(state: VolState, price: number, atMs: number, opts: EwmaOptions = DEFAULT_EWMA): VolState {
  if (!(price > 0) || atMs <= state.lastMs) return state;
  const dt = Math.max((atMs - state.lastMs) / 1000, opts.minIntervalSec);
  const r = Math.log(price / state.lastPrice);
  const w = Math.exp(-dt / opts.timeConstantSec);
  return { variance: w * state.variance + (1 - w) * ((r * r) / dt), lastPrice: price, lastMs: atMs };
}
