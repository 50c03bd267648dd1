/**
 * Which operators list short up/down contracts, and how each one prices them when no quote of its
 * own is available: the fair value plus that venue's margin (overround) and a small skew, rounded
 * up to its tick like an ask.
 */
import type { Horizon } from '../model/index.js';

export interface LiveVenue {
  operatorId: string;
  horizons: readonly Horizon[];
  /** up + down - 1 at fair value. */
  margin: number;
  /** Shifts the up side (positive: up dearer, down cheaper). */
  skew: number;
  tick: number;
}

export const LIVE_VENUES: readonly LiveVenue[] = [
  // Polymarket lists 5- and 15-minute up/down markets on BTC, ETH and SOL, tick 0.001.
  { operatorId: 'polymarket', horizons: [5, 15], margin: 0.02, skew: 0.002, tick: 0.001 },
  // Kalshi's short crypto series (KXBTC15M, ...) are 15-minute only, whole-cent ticks.
  { operatorId: 'kalshi', horizons: [15], margin: 0.03, skew: -0.002, tick: 0.01 },
  { operatorId: 'limitless', horizons: [5, 15], margin: 0.04, skew: 0, tick: 0.001 },
];

export interface VenueQuote {
  operatorId: string;
  up: number;
  down: number;
}

const roundUpToTick = (p: number, tick: number) => Math.ceil(p / tick - 1e-9) * tick;
const clampPrice = (p: number, tick: number) => Math.min(1 - tick, Math.max(tick, p));

/** The venue's up/down asks for a fair probability of "up". */
export function modelQuote(venue: LiveVenue, fairUp: number): VenueQuote {
  const half = venue.margin / 2;
  const round = (p: number) => Number(clampPrice(roundUpToTick(p, venue.tick), venue.tick).toFixed(6));
  return {
    operatorId: venue.operatorId,
    up: round(fairUp + half + venue.skew),
    down: round(1 - fairUp + half - venue.skew),
  };
}

/**
 * Best odds (docs/design.md): the lowest overround (up + down); ties go to the higher up payout; operators
 * still tied are all flagged.
 */
export function liveLeaders(quotes: readonly VenueQuote[]): Set<string> {
  const EPS = 1e-9;
  let best: VenueQuote[] = [];
  for (const q of quotes) {
    const b = best[0];
    if (!b) {
      best = [q];
      continue;
    }
    const byOverround = b.up + b.down - (q.up + q.down);
    const byPayout = b.up - q.up; // lower up price = higher up payout
    if (byOverround > EPS || (Math.abs(byOverround) <= EPS && byPayout > EPS)) best = [q];
    else if (Math.abs(byOverround) <= EPS && Math.abs(byPayout) <= EPS) best.push(q);
  }
  return new Set(best.map((q) => q.operatorId));
}
