/**
 * Simulated spot prices, a time-indexed seeded source: the price of an asset at any instant is a
 * function of (seed, asset, time) alone, so the feed knows the simulated price at each window's
 * start the moment it starts (no waiting for a window to begin to get a strike).
 *
 * The path: each UTC day starts at an anchor level drawn around a realistic price; hourly levels
 * bridge one day's anchor to the next; within each hour a geometric random walk at fixed 100 ms
 * steps (with bursts of higher volatility now and then) is bridged from that hour's level to the
 * next, so the path is continuous across hours and days and one hour costs 36,000 steps to build.
 * Ticks go out at jittered times, several a second; each is the path's price at its timestamp.
 */
import { ASSETS, HORIZONS, type Asset, type Tick } from '../../model/index.js';
import { windowAt } from '../../live/window.js';
import { systemClock, type Clock } from '../../model/clock.js';
import { createRng, key } from './rng.js';
import type { PriceSource } from '../prices/price-source.js';

const START: Readonly<Record<Asset, number>> = { BTC: 97_000, ETH: 3_400, SOL: 185 };
const ANNUAL_VOL: Readonly<Record<Asset, number>> = { BTC: 0.55, ETH: 0.7, SOL: 0.9 };
const SECONDS_PER_YEAR = 365 * 24 * 3600;

/** Standard normal draw (Box-Muller). */
function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

export interface WalkState {
  price: number;
  /** Seconds of burst left; volatility is tripled while > 0. */
  burstLeftSec: number;
}

/** One step of the walk over `dtSec` (pure given the random stream). */
export function step(state: WalkState, annualVol: number, dtSec: number, next: () => number): WalkState {
  let burst = Math.max(0, state.burstLeftSec - dtSec);
  // About one burst an hour per asset, lasting 10-40 seconds.
  if (burst === 0 && next() < dtSec / 3600) burst = 10 + next() * 30;
  const sigma = (annualVol * (burst > 0 ? 3 : 1)) / Math.sqrt(SECONDS_PER_YEAR);
  const z = normal(next);
  const price = state.price * Math.exp(-0.5 * sigma * sigma * dtSec + sigma * Math.sqrt(dtSec) * z);
  return { price: Math.round(price * 100) / 100, burstLeftSec: burst };
}

const STEP_MS = 100;
const HOUR_MS = 3_600_000;
const STEPS_PER_HOUR = HOUR_MS / STEP_MS;
const HOURS_PER_DAY = 24;

/** Standard deviation of log price over `seconds` at `annualVol`. */
const sigmaOver = (annualVol: number, seconds: number) => annualVol * Math.sqrt(seconds / SECONDS_PER_YEAR);

/**
 * Log price at the start of UTC day `day` (days since the epoch). Drawn on its own around the
 * asset's level, with a spread that gives consecutive days a realistic daily move, so no day needs
 * the one before it.
 */
function dayAnchor(seed: number, asset: Asset, day: number): number {
  const z = createRng(key(seed, 'sim-price-day', asset, String(day))).normal();
  return Math.log(START[asset]) + (sigmaOver(ANNUAL_VOL[asset], 86_400) / Math.SQRT2) * z;
}

/** Log price at the start of hour `hour` (hours since the epoch): a bridge of hourly steps between two day anchors. */
function hourAnchor(seed: number, asset: Asset, hour: number): number {
  const day = Math.floor(hour / HOURS_PER_DAY);
  const h = hour - day * HOURS_PER_DAY;
  const from = dayAnchor(seed, asset, day);
  if (h === 0) return from;
  const rng = createRng(key(seed, 'sim-price-hours', asset, String(day)));
  const sigma = sigmaOver(ANNUAL_VOL[asset], 3600);
  let walk = 0;
  let atH = 0;
  for (let j = 1; j <= HOURS_PER_DAY; j++) {
    walk += sigma * rng.normal();
    if (j === h) atH = walk;
  }
  // Brownian bridge: the free walk, less the share of its end that misses the next day's anchor.
  return from + atH - (h / HOURS_PER_DAY) * (walk - (dayAnchor(seed, asset, day + 1) - from));
}

/** The prices of one hour at each 100 ms step, from this hour's level to (not including) the next hour's. */
function hourPath(seed: number, asset: Asset, hour: number): Float64Array {
  const { next } = createRng(key(seed, 'sim-price-steps', asset, String(hour)));
  const start = hourAnchor(seed, asset, hour);
  const end = hourAnchor(seed, asset, hour + 1);
  const free = new Float64Array(STEPS_PER_HOUR + 1);
  let state: WalkState = { price: Math.exp(start), burstLeftSec: 0 };
  free[0] = state.price;
  for (let k = 1; k <= STEPS_PER_HOUR; k++) {
    state = step(state, ANNUAL_VOL[asset], STEP_MS / 1000, next);
    free[k] = state.price;
  }
  // Bridge the free walk onto the next hour's level, so the path is continuous at the hour.
  const miss = Math.log(free[STEPS_PER_HOUR]!) - end;
  const path = new Float64Array(STEPS_PER_HOUR);
  for (let k = 0; k < STEPS_PER_HOUR; k++)
    path[k] = Math.round(free[k]! * Math.exp(-(k / STEPS_PER_HOUR) * miss) * 100) / 100;
  return path;
}

/**
 * The simulated price of one asset at any time, for one seed. Holds the hour last asked for, so
 * prices asked in time order cost one hour's build per hour.
 */
export class SimulatedWalk {
  #hour = Number.NaN;
  #path: Float64Array = new Float64Array(0);

  constructor(
    readonly seed: number,
    readonly asset: Asset,
  ) {}

  /** The price at `tMs` (epoch ms): the path's value at the 100 ms step holding it, in whole cents. */
  at(tMs: number): number {
    const hour = Math.floor(tMs / HOUR_MS);
    if (hour !== this.#hour) {
      this.#path = hourPath(this.seed, this.asset, hour);
      this.#hour = hour;
    }
    return this.#path[Math.floor((tMs - hour * HOUR_MS) / STEP_MS)]!;
  }
}

/** The simulated price of `asset` at `tMs` for `seed` (builds the hour; use a SimulatedWalk for many). */
export const simulatedPriceAt = (seed: number, asset: Asset, tMs: number): number =>
  new SimulatedWalk(seed, asset).at(tMs);

/** Window starts are on whole multiples of the shortest horizon (every longer one's start is one too). */
const BOUNDARY_MINUTES = Math.min(...HORIZONS);

/**
 * When the current windows' start ticks are sent again after start: an API process that comes up
 * after the feed (processes start together, an API may take seconds) still gets its strike; one
 * that starts later reads the strike key another instance stored.
 */
const START_TICKS_AGAIN_AFTER_MS = [1_000, 3_000, 10_000, 30_000];

export interface SimulatedPricesOptions {
  seed: number;
  /** Mean milliseconds between ticks per asset. */
  intervalMs?: number;
  /** The wall clock the path is read at (default: the machine's). */
  now?: Clock;
}

/**
 * The simulator as a PriceSource. At start it sends, per asset, a tick stamped at each current
 * window's start with the path's price there (with its true, older timestamp), then live ticks at
 * jittered times; a window start passed between two live ticks gets a tick of its own first.
 */
export function createSimulatedPrices(opts: SimulatedPricesOptions): PriceSource {
  const interval = opts.intervalMs ?? 250;
  const loops: NodeJS.Timeout[] = [];
  const again: NodeJS.Timeout[] = [];
  return {
    name: 'simulator',
    async start(onTick) {
      const clock = opts.now ?? systemClock;
      const startMs = clock();
      ASSETS.forEach((asset, i) => {
        const walk = new SimulatedWalk(opts.seed, asset);
        const tickAt = (ms: number): Tick => ({
          asset,
          price: walk.at(ms),
          ts: new Date(ms).toISOString(),
          source: 'simulator',
        });
        // Oldest first, so the spot ends on the newest of them.
        const starts = [...new Set(HORIZONS.map((h) => windowAt(startMs, h).startMs))]
          .sort((a, b) => a - b)
          .map(tickAt);
        for (const t of starts) onTick(t);
        for (const after of START_TICKS_AGAIN_AFTER_MS)
          again.push(
            setTimeout(() => {
              for (const t of starts) onTick(t);
            }, after),
          );
        const { next } = createRng(key(opts.seed, 'sim-price-timing', asset));
        let last = startMs;
        const loop = () => {
          const now = clock();
          const boundary = windowAt(now, BOUNDARY_MINUTES).startMs;
          if (boundary > last) onTick(tickAt(boundary));
          onTick(tickAt(now));
          last = now;
          // Jittered spacing, like a real trade stream.
          loops[i] = setTimeout(loop, interval * (0.5 + next()));
        };
        loops[i] = setTimeout(loop, next() * interval);
      });
    },
    async stop() {
      [...loops, ...again].forEach(clearTimeout);
    },
  };
}
