/**
 * Volatility from recent ticks: a time-weighted EWMA of squared log returns per second. Weighting by
 * elapsed time (not tick count) keeps the estimate honest when tick rates change in bursts.
 * The price feed measures it and stamps it on every tick it publishes (`VolatilityStamp`), so every
 * API process prices with the same estimate however long it has been running.
 */
import type { Asset, Tick } from '../model/index.js';

/** Typical annualized volatility, the estimate's starting point before ticks teach it better. */
export const PRIOR_ANNUAL_VOL: Readonly<Record<Asset, number>> = { BTC: 0.55, ETH: 0.7, SOL: 0.9 };

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
export function updateVolatility(
  state: VolState,
  price: number,
  atMs: number,
  opts: EwmaOptions = DEFAULT_EWMA,
): VolState {
  if (!(price > 0) || atMs <= state.lastMs) return state;
  const dt = (atMs - state.lastMs) / 1000;
  if (dt < opts.minIntervalSec) return state;
  const r = Math.log(price / state.lastPrice);
  const w = Math.exp(-dt / opts.timeConstantSec);
  return { variance: w * state.variance + (1 - w) * ((r * r) / dt), lastPrice: price, lastMs: atMs };
}

/** The per-second variance an asset is priced with before any tick says otherwise. */
export const priorVariance = (asset: Asset): number => varianceFromAnnual(PRIOR_ANNUAL_VOL[asset]);

/**
 * The feed's side: one EWMA per asset over the ticks it publishes, stamped on each tick as
 * `variance`. Only the newest tick by timestamp teaches the estimate; an older one (a window-start
 * tick sent late) carries the estimate as it stands.
 */
export class VolatilityStamp {
  readonly #states = new Map<Asset, VolState>();

  constructor(private readonly opts: EwmaOptions = DEFAULT_EWMA) {}

  /** `tick` with the asset's variance after folding it in. */
  stamp(tick: Tick): Tick {
    const atMs = Date.parse(tick.ts);
    const state = this.#states.get(tick.asset);
    const next = state
      ? updateVolatility(state, tick.price, atMs, this.opts)
      : { variance: priorVariance(tick.asset), lastPrice: tick.price, lastMs: atMs };
    this.#states.set(tick.asset, next);
    return { ...tick, variance: next.variance };
  }
}
