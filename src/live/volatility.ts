/**
 * Volatility from recent ticks: a time-weighted EWMA of squared log returns per second. Weighting by
 * elapsed time (not tick count) keeps the estimate honest when tick rates change in bursts.
 */

export interface VolState {
  /** Variance of log price per second. */
  variance: number;
  /** Price and time of the last update: returns accumulate from here until the next one. */
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
  /**
   * Shortest interval one return may span: ticks closer than this are folded into one return over
   * the true elapsed time, so sub-second microstructure noise does not dominate the estimate.
   */
  minIntervalSec: number;
}

export const DEFAULT_EWMA: EwmaOptions = { timeConstantSec: 300, minIntervalSec: 0.25 };

/**
 * Folds one tick into the estimate. A tick less than `minIntervalSec` after the last update leaves
 * the state as it is: its return is not lost, because the next update measures the log return from
 * the last update's price over the true elapsed time (the sum of the skipped returns). Dividing by
 * a floored dt instead would shrink the variance by dt / floor at fast ticks. Out-of-order or
 * non-positive prices are ignored.
 */
export function updateVolatility(state: VolState, price: number, atMs: number, opts: EwmaOptions = DEFAULT_EWMA): VolState {
  if (!(price > 0) || atMs <= state.lastMs) return state;
  const dt = (atMs - state.lastMs) / 1000;
  if (dt < opts.minIntervalSec) return state;
  const r = Math.log(price / state.lastPrice);
  const w = Math.exp(-dt / opts.timeConstantSec);
  return { variance: w * state.variance + (1 - w) * ((r * r) / dt), lastPrice: price, lastMs: atMs };
}
