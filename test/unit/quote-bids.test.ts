/**
 * Bids for mid prices: the real normalizers keep the venue's best bid (recorded responses), the
 * catalog builder carries it into each quote (the NO side for `invert: true`), and says which
 * events are mutually exclusive.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogEvents, exclusiveOutcomes, indexMarkets } from '../../src/catalog/events/build.js';
import { loadEventCatalog } from '../../src/catalog/events/load.js';
import type { CatalogEvent } from '../../src/catalog/events/schema.js';
import { normalizeKalshiEvents } from '../../src/sources/kalshi/normalize.js';
import { normalizeGammaEvents } from '../../src/sources/polymarket/normalize.js';
import { recorded } from '../support/upstream-replay.js';

describe('normalizers keep the best bid', () => {
  it('Kalshi: yes_bid_dollars and no_bid_dollars', () => {
    const m = normalizeKalshiEvents(recorded().kalshiEvents).markets.find(
      (x) => x.id === 'KXUSAIRANAGREEMENT-27-26APR',
    )!;
    // yes_bid 0.16 / yes_ask 0.18, no_bid 0.82 / no_ask 0.84
    expect(m).toMatchObject({ yesBid: 0.16, yesAsk: 0.18, noBid: 0.82, noAsk: 0.84 });
    // A finalized market's 0 bid is "no order", not a price.
    const done = normalizeKalshiEvents(recorded().kalshiEvents).markets.find(
      (x) => x.id === 'KXKHAMENEIOUT-AKHA-26FEB01',
    )!;
    expect(done.yesBid).toBeUndefined();
  });

  it('Polymarket: bestBid, and the NO bid as 1 - bestAsk (one book)', () => {
    const m = normalizeGammaEvents(recorded().gammaEvents).markets.find(
      (x) => x.id === 'iran-x-israelus-conflict-ends-by-march-15',
    )!;
    // bestBid 0.23, bestAsk 0.24
    expect(m).toMatchObject({ yesBid: 0.23, yesAsk: 0.24, noBid: 0.76, noAsk: 0.77 });
  });
});

const EVENT_CATALOG = loadEventCatalog();

describe('catalog events', () => {
  const markets = [
    ...normalizeKalshiEvents(recorded().kalshiEvents).markets,
    ...normalizeGammaEvents(recorded().gammaEvents).markets,
  ];
  const { data } = buildCatalogEvents(EVENT_CATALOG, indexMarkets(markets));

  it('carry the bid into the quote, the NO bid for an inverted reference', () => {
    const pahlavi = data.events.find((e) => e.slug === 'us-recognizes-reza-pahlavi-2026')!;
    // KXRECOGPERSONIRAN-26: yes 0.25 / 0.27, no 0.73 / 0.75
    expect(pahlavi.outcomes.map((o) => [o.name, o.quotes[0]!.yesBid, o.quotes[0]!.yesPrice])).toEqual([
      ['Yes', 0.25, 0.27],
      ['No', 0.73, 0.75],
    ]);
  });

  it('mark a Yes/No pair exclusive and leave deadline ladders unnormalised', () => {
    const bySlug = new Map(data.events.map((e) => [e.slug, e.exclusive]));
    expect(bySlug.get('us-recognizes-reza-pahlavi-2026')).toBe(true);
    expect(bySlug.get('us-iran-nuclear-deal-2026')).toBe(false);
    expect(bySlug.get('iran-israel-us-conflict-ends-march-2026')).toBe(false);
  });

  it("take a reviewer's exclusive flag over the default", () => {
    const ladder = EVENT_CATALOG.find((e) => e.slug === 'us-iran-nuclear-deal-2026')!;
    expect(exclusiveOutcomes(ladder)).toBe(false);
    const reviewed: CatalogEvent = { ...ladder, exclusive: true };
    expect(exclusiveOutcomes(reviewed)).toBe(true);
    const yesNo = EVENT_CATALOG.find((e) => e.slug === 'us-recognizes-reza-pahlavi-2026')!;
    expect(exclusiveOutcomes({ ...yesNo, exclusive: false })).toBe(false);
  });
});
