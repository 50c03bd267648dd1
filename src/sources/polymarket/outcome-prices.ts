/**
 * What a Gamma market's `outcomePrices` say beside its book (docs/sources.md, invariants 4 and 5):
 * whether the market has resolved (prices 1 and 0), and whether they agree with `bestBid` and
 * `bestAsk`. Pure.
 */
import { num } from '../http/parse.js';
import type { GammaMarket } from './schemas.js';

const prices = (m: GammaMarket): [number, number] | undefined => {
  const p = m.outcomePrices?.map((x) => num(x));
  return p?.length === 2 && p.every((x) => x !== undefined) ? (p as [number, number]) : undefined;
};

/** The outcome a market resolved to (its price 1, the other's 0), or undefined while it trades. */
export function resolvedOutcome(m: GammaMarket): string | undefined {
  const p = prices(m);
  if (!p || p[0] * p[1] !== 0 || p[0] + p[1] !== 1) return undefined;
  return m.outcomes[p[0] === 1 ? 0 : 1];
}

/**
 * Why a market's `outcomePrices` contradict its book, or undefined when they agree: the first
 * outcome's displayed price is the book's mid while the spread is at most 10¢ (Gamma's rule;
 * wider books show the last trade), and the two prices sum to 1. A resolved market is its
 * lifecycle's, not this.
 */
export function priceDisagreement(m: GammaMarket): string | undefined {
  const p = prices(m);
  if (!p || resolvedOutcome(m) !== undefined) return undefined;
  const [first, second] = p;
  if (Math.abs(first + second - 1) > 0.02) return `outcomePrices ${first} + ${second} do not sum to 1`;
  const bid = m.bestBid ?? undefined;
  const ask = m.bestAsk ?? undefined;
  if (bid === undefined || ask === undefined || !(ask > bid) || ask - bid > 0.1) return undefined;
  // Half the spread either side of the mid, plus a cent of rounding.
  if (Math.abs(first - (bid + ask) / 2) > (ask - bid) / 2 + 0.01)
    return `outcomePrices ${first} of "${m.outcomes[0]}" lies outside its book (bid ${bid}, ask ${ask})`;
  return undefined;
}
