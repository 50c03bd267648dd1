import { describe, expect, it } from 'vitest';
import { LIVE_VENUES, liveLeaders, modelQuote, type LiveVenue, type VenueQuote } from '../../src/live/venues.js';

const venue = (id: string): LiveVenue => {
  const v = LIVE_VENUES.find((x) => x.operatorId === id);
  if (!v) throw new Error(`no venue ${id}`);
  return v;
};

// Fixed test venues, so the arithmetic below does not move if the catalog's margins are retuned.
const POLY: LiveVenue = { operatorId: 'polymarket', horizons: [5, 15], margin: 0.02, skew: 0.002, tick: 0.001 };
const KALSHI: LiveVenue = { operatorId: 'kalshi', horizons: [15], margin: 0.03, skew: -0.002, tick: 0.01 };
const FLAT: LiveVenue = { operatorId: 'limitless', horizons: [5, 15], margin: 0.04, skew: 0, tick: 0.001 };

describe('LIVE_VENUES', () => {
  it('lists Kalshi for 15 minutes only, and Polymarket for both horizons', () => {
    expect(venue('kalshi').horizons).toEqual([15]);
    expect([...venue('polymarket').horizons].sort()).toEqual([15, 5]);
  });
});

describe('modelQuote', () => {
  it('adds half the margin plus the skew to up, half the margin minus the skew to down', () => {
    // up = 0.5 + 0.02/2 + 0.002 = 0.512 (on the 0.001 tick: stays); down = 0.5 + 0.01 - 0.002 = 0.508
    expect(modelQuote(POLY, 0.5)).toEqual({ operatorId: 'polymarket', up: 0.512, down: 0.508 });
    // up = 0.5 + 0.02 + 0 = 0.52; down = 0.52
    expect(modelQuote(FLAT, 0.5)).toEqual({ operatorId: 'limitless', up: 0.52, down: 0.52 });
  });

  it('rounds each side UP to the venue tick', () => {
    // up = 0.5 + 0.015 - 0.002 = 0.513 -> 0.52; down = 0.5 + 0.015 + 0.002 = 0.517 -> 0.52
    expect(modelQuote(KALSHI, 0.5)).toEqual({ operatorId: 'kalshi', up: 0.52, down: 0.52 });
    // up = 0.3 + 0.013 = 0.313 -> 0.32; down = 0.7 + 0.017 = 0.717 -> 0.72
    expect(modelQuote(KALSHI, 0.3)).toEqual({ operatorId: 'kalshi', up: 0.32, down: 0.72 });
    // up = 0.4567 + 0.012 = 0.4687 -> 0.469; down = 0.5433 + 0.008 = 0.5513 -> 0.552
    expect(modelQuote(POLY, 0.4567)).toEqual({ operatorId: 'polymarket', up: 0.469, down: 0.552 });
  });

  it('does not bump a price already on a tick because of float noise', () => {
    // up = 0.547 + 0.015 - 0.002 = 0.56 exactly on a cent; down = 0.453 + 0.017 = 0.47
    expect(modelQuote(KALSHI, 0.547)).toEqual({ operatorId: 'kalshi', up: 0.56, down: 0.47 });
    // up = 0.488 + 0.012 = 0.5; down = 0.512 + 0.008 = 0.52
    expect(modelQuote(POLY, 0.488)).toEqual({ operatorId: 'polymarket', up: 0.5, down: 0.52 });
  });

  it('clamps both sides to [tick, 1 - tick]', () => {
    // fair 0.995: up = 1.007 -> 0.999; down = 0.005 + 0.008 = 0.013
    expect(modelQuote(POLY, 0.995)).toEqual({ operatorId: 'polymarket', up: 0.999, down: 0.013 });
    // fair 0: up = 0.012; down = 1 + 0.008 = 1.008 -> 0.999
    expect(modelQuote(POLY, 0)).toEqual({ operatorId: 'polymarket', up: 0.012, down: 0.999 });
    // fair 1: up = 1.013 -> 0.99; down = 0.017 -> 0.02
    expect(modelQuote(KALSHI, 1)).toEqual({ operatorId: 'kalshi', up: 0.99, down: 0.02 });
    // fair 0: up = 0.013 -> 0.02; down = 1.017 -> 0.99
    expect(modelQuote(KALSHI, 0)).toEqual({ operatorId: 'kalshi', up: 0.02, down: 0.99 });
    // skew pushing down below zero: fair 1, margin 0, skew +0.01 -> down = -0.01 -> tick 0.01
    const skewed: LiveVenue = { operatorId: 'x', horizons: [5], margin: 0, skew: 0.01, tick: 0.01 };
    expect(modelQuote(skewed, 1)).toEqual({ operatorId: 'x', up: 0.99, down: 0.01 });
  });

  it('keeps the overround between the margin and the margin plus two ticks away from the clamps', () => {
    for (let i = 5; i <= 95; i++) {
      const fair = i / 100 + 0.0037;
      for (const v of [POLY, KALSHI, FLAT]) {
        const q = modelQuote(v, fair);
        const over = q.up + q.down - 1;
        expect(over).toBeGreaterThanOrEqual(v.margin - 1e-9);
        expect(over).toBeLessThanOrEqual(v.margin + 2 * v.tick + 1e-9);
        // Every price lands on the venue's tick grid.
        expect(Math.abs(q.up / v.tick - Math.round(q.up / v.tick))).toBeLessThan(1e-6);
        expect(Math.abs(q.down / v.tick - Math.round(q.down / v.tick))).toBeLessThan(1e-6);
      }
    }
  });
});

describe('liveLeaders', () => {
  const q = (operatorId: string, up: number, down: number): VenueQuote => ({ operatorId, up, down });
  const sorted = (s: Set<string>) => [...s].sort();

  /** The leaders must not depend on the order quotes arrive in. */
  function leadersAllOrders(quotes: VenueQuote[]): string[] {
    const perms = (xs: VenueQuote[]): VenueQuote[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    const results = perms(quotes).map((p) => sorted(liveLeaders(p)));
    for (const r of results) expect(r).toEqual(results[0]);
    return results[0]!;
  }

  it('picks the lowest overround', () => {
    // a: 0.56 + 0.461 = 1.021; b: 0.57 + 0.47 = 1.04; c: 0.54 + 0.50 = 1.04
    expect(leadersAllOrders([q('a', 0.56, 0.461), q('b', 0.57, 0.47), q('c', 0.54, 0.5)])).toEqual(['a']);
  });

  it('breaks an overround tie by the lower up price (higher up payout)', () => {
    // a: 0.55 + 0.47 = 1.02; b: 0.52 + 0.50 = 1.02 -> b (up 0.52 < 0.55)
    // c: 0.50 + 0.53 = 1.03 has the lowest up but a higher overround: loses
    expect(leadersAllOrders([q('a', 0.55, 0.47), q('b', 0.52, 0.5), q('c', 0.5, 0.53)])).toEqual(['b']);
  });

  it('flags every operator in a full tie', () => {
    expect(leadersAllOrders([q('a', 0.52, 0.5), q('b', 0.52, 0.5), q('c', 0.53, 0.5)])).toEqual(['a', 'b']);
  });

  it('treats float noise within 1e-9 as a tie', () => {
    // 0.1 + 0.2 = 0.30000000000000004 vs 0.3: equal within 1e-9, so a full tie.
    expect(leadersAllOrders([q('a', 0.1 + 0.2, 0.7), q('b', 0.3, 0.7)])).toEqual(['a', 'b']);
    // Sums 0.7 + 0.31 and 0.61 + 0.4 both read 1.01 (up to float noise): tie broken by up 0.61 < 0.7.
    expect(leadersAllOrders([q('a', 0.7, 0.31), q('b', 0.61, 0.4)])).toEqual(['b']);
    // A real difference of 1e-6 is not noise.
    expect(leadersAllOrders([q('a', 0.5, 0.52), q('b', 0.5, 0.520001)])).toEqual(['a']);
  });

  it('is empty for no quotes and the single operator for one', () => {
    expect(liveLeaders([]).size).toBe(0);
    expect(sorted(liveLeaders([q('solo', 0.6, 0.6)]))).toEqual(['solo']);
  });
});
