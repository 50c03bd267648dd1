/**
 * Simulated spot prices: a seeded geometric random walk per asset from realistic levels, several
 * ticks a second, with bursts of higher volatility now and then. The price path is deterministic
 * for a seed (tick timing follows the wall clock).
 */
import { ASSETS, type Asset } from '../../src/live/market.js';
import { createRng } from '../../src/sources/simulator/rng.js';
import type { PriceSource } from './price-source.js';

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

export interface SimulatedPricesOptions {
  seed: number;
  /** Mean milliseconds between ticks per asset. */
  intervalMs?: number;
}

export function createSimulatedPrices(opts: SimulatedPricesOptions): PriceSource {
  const interval = opts.intervalMs ?? 250;
  const timers: NodeJS.Timeout[] = [];
  return {
    name: 'simulator',
    async start(onTick) {
      ASSETS.forEach((asset, i) => {
        const { next } = createRng(opts.seed * 31 + i);
        let state: WalkState = { price: START[asset], burstLeftSec: 0 };
        let last = Date.now();
        const loop = () => {
          const now = Date.now();
          state = step(state, ANNUAL_VOL[asset], (now - last) / 1000, next);
          last = now;
          onTick({ asset, price: state.price, ts: new Date(now).toISOString(), source: 'simulator' });
          // Jittered spacing, like a real trade stream.
          timers[i] = setTimeout(loop, interval * (0.5 + next()));
        };
        timers[i] = setTimeout(loop, next() * interval);
      });
    },
    async stop() {
      timers.forEach(clearTimeout);
    },
  };
}
