import { describe, expect, it } from 'vitest';
import { catalogView } from '../../src/catalog/shown-operators.js';
import { buildEventList, buildSpecificEvent } from '../../src/widgets/advertiser-events.js';
import { EventListPayload, SpecificEventPayload } from '../../src/widgets/payload-schemas.js';
import type { MarketEvent, Quote } from '../../src/model/index.js';

const CHANGED_AT = '2026-11-22T14:00:00.000Z';

const q = (operatorId: string, yesPrice: number, volume24hUsd: number, path: string): Quote => ({
  operatorId,
  yesPrice,
  volume24hUsd,
  marketUrl: `https://${operatorId}.com/markets/${path}`,
});

function event(slug: string, closesAt: string): MarketEvent {
  return {
    slug,
    question: `Question ${slug}?`,
    category: 'politics',
    closesAt,
    outcomes: [{ name: 'Yes', quotes: [q('kalshi', 0.5, 1, slug), q('polymarket', 0.52, 1, slug)] }],
  };
}

const PAIR = { operatorA: 'kalshi', operatorB: 'polymarket' };

describe('buildEventList', () => {
  const now = new Date('2026-11-22T14:00:00.000Z');

  it('lists events closing after now, in snapshot order, and nothing closed', () => {
    const events = [
      event('closes-later', '2026-12-01T00:00:00.000Z'),
      event('closed-yesterday', '2026-11-21T14:00:00.000Z'),
      event('closes-now', '2026-11-22T14:00:00.000Z'),
      event('closes-in-a-ms', '2026-11-22T14:00:00.001Z'),
      event('already-closed-1ms', '2026-11-22T13:59:59.999Z'),
      event('another-open', '2027-01-01T00:00:00.000Z'),
    ];
    const payload = buildEventList(events, now, PAIR);
    expect(() => EventListPayload.parse(payload)).not.toThrow();
    expect(payload.data.events).toEqual(['closes-later', 'closes-in-a-ms', 'another-open']);
    expect(typeof payload.message).toBe('string');
  });

  it('gives an empty list when nothing is open', () => {
    const payload = buildEventList([event('old', '2020-01-01T00:00:00.000Z')], now, PAIR);
    expect(EventListPayload.parse(payload).data.events).toEqual([]);
  });

  it('lists only events whose A/B comparison has an outcome, and every listed slug answers one', () => {
    const open = '2027-01-01T00:00:00.000Z';
    const split: MarketEvent = {
      ...event('a-and-b-on-different-outcomes', open),
      outcomes: [
        { name: 'OnlyA', quotes: [q('kalshi', 0.5, 1, 'a')] },
        { name: 'OnlyB', quotes: [q('polymarket', 0.5, 1, 'b')] },
      ],
    };
    const onlyA: MarketEvent = {
      ...event('only-a', open),
      outcomes: [{ name: 'Yes', quotes: [q('kalshi', 0.5, 1, 'y')] }],
    };
    const events = [event('shared', open), split, onlyA];
    const listed = buildEventList(events, now, PAIR).data.events;
    expect(listed).toEqual(['shared']);
    for (const slug of listed) {
      const e = events.find((x) => x.slug === slug)!;
      const cmp = buildSpecificEvent(e, CHANGED_AT, { ...PAIR, limit: 1 }, catalogView('US'));
      expect(cmp.data.outcomes.length, slug).toBeGreaterThan(0);
    }
    // the pair is the advertiser's configuration: swapping it lists by the new pair
    expect(buildEventList(events, now, { operatorA: 'kalshi', operatorB: 'draftkings' }).data.events).toEqual([]);
  });
});

describe('buildSpecificEvent', () => {
  const EVENT: MarketEvent = {
    slug: 'senate-control-2026',
    question: 'Which party will control the Senate?',
    category: 'politics',
    closesAt: '2026-11-30T00:00:00.000Z',
    outcomes: [
      // combined volume 1,000 + 500 = 1,500
      { name: 'Alpha', quotes: [q('kalshi', 0.57, 1_000, 'alpha'), q('polymarket', 0.55, 500, 'alpha')] },
      // only A lists it
      { name: 'Beta', quotes: [q('kalshi', 0.4, 9_999_999, 'beta')] },
      // combined 100 + 5,000 = 5,100; B is listed first and a third operator is present
      {
        name: 'Gamma',
        quotes: [
          q('polymarket', 0.3, 5_000, 'gamma'),
          q('draftkings', 0.2, 7, 'gamma'),
          q('kalshi', 0.1, 100, 'gamma'),
        ],
      },
      // combined 3,000 + 0 = 3,000
      { name: 'Delta', quotes: [q('kalshi', 0.29, 3_000, 'delta'), q('polymarket', 0.58, 0, 'delta')] },
      // only B lists it
      { name: 'Epsilon', quotes: [q('polymarket', 0.9, 8_888_888, 'eps')] },
    ],
  };
  const ctx = catalogView('US-NJ');
  const opts = { operatorA: 'kalshi', operatorB: 'polymarket' };

  it('compares the outcomes both operators list, in snapshot order, with exact spreads', () => {
    const payload = buildSpecificEvent(EVENT, CHANGED_AT, opts, ctx);
    expect(() => SpecificEventPayload.parse(payload)).not.toThrow();
    expect(payload.data.event).toEqual({
      slug: 'senate-control-2026',
      title: 'Which party will control the Senate?',
      category: 'politics',
      closes_at: '2026-11-30T00:00:00.000Z',
      last_verified_timestamp: CHANGED_AT,
    });
    // a viewer in New Jersey may be shown Kalshi, not Polymarket
    expect(payload.data.resolved_geo).toBe('US');
    expect(payload.data.resolved_region).toBe('US-NJ');
    expect(payload.data.operators).toEqual({
      operatorA: { id: 'kalshi', name: 'Kalshi', allowed_in_geo: true },
      operatorB: { id: 'polymarket', name: 'Polymarket', allowed_in_geo: false },
    });
    expect(payload.data.outcomes).toEqual([
      {
        name: 'Alpha',
        // After fees (politics): Kalshi 0.57 + round_up(0.07 × 100 × 0.57 × 0.43 = 1.7157 → 1.72)/100;
        // Polymarket 0.55 + 0.04 × 0.55 × 0.45 = 0.55 + 0.0099
        operatorAPrice: 0.5872,
        operatorBPrice: 0.5599,
        // |58.72 - 55.99| = 2.73
        spreadCents: 2.73,
        operatorAVolume24h: 1_000,
        operatorBVolume24h: 500,
        operatorAMarketUrl: 'https://kalshi.com/markets/alpha',
        operatorBMarketUrl: 'https://polymarket.com/markets/alpha',
      },
      {
        name: 'Gamma',
        // Kalshi 0.1 + 0.63/100; Polymarket 0.3 + 0.04 × 0.3 × 0.7 = 0.3 + 0.0084
        operatorAPrice: 0.1063,
        operatorBPrice: 0.3084,
        // |10.63 - 30.84| = 20.21
        spreadCents: 20.21,
        operatorAVolume24h: 100,
        operatorBVolume24h: 5_000,
        operatorAMarketUrl: 'https://kalshi.com/markets/gamma',
        operatorBMarketUrl: 'https://polymarket.com/markets/gamma',
      },
      {
        name: 'Delta',
        // Kalshi 0.29 + round_up(1.4413 → 1.45)/100; Polymarket 0.58 + 0.04 × 0.58 × 0.42 = 0.58 + 0.009744
        operatorAPrice: 0.3045,
        operatorBPrice: 0.589744,
        // |30.45 - 58.9744| = 28.5244
        spreadCents: 28.5244,
        operatorAVolume24h: 3_000,
        operatorBVolume24h: 0,
        operatorAMarketUrl: 'https://kalshi.com/markets/delta',
        operatorBMarketUrl: 'https://polymarket.com/markets/delta',
      },
    ]);
  });

  it('gives 0 cents for equal after-fee prices and keeps fractional cents', () => {
    const e: MarketEvent = {
      ...EVENT,
      outcomes: [
        // Kalshi 0.43 + round_up(1.7157 → 1.72)/100 = 0.4472; ForecastEx charges no fee: 0.4472
        { name: 'Same', quotes: [q('kalshi', 0.43, 1, 's'), q('forecastex', 0.4472, 1, 's')] },
        // Kalshi 0.625 + round_up(1.640625 → 1.65)/100 = 0.6415; 0.6415 - 0.6 = 4.15
        { name: 'Fraction', quotes: [q('kalshi', 0.625, 1, 'h'), q('forecastex', 0.6, 1, 'h')] },
      ],
    };
    const payload = buildSpecificEvent(e, CHANGED_AT, { ...opts, operatorB: 'forecastex' }, ctx);
    expect(payload.data.outcomes.map((o) => o.spreadCents)).toEqual([0, 4.15]);
  });

  it("compares after-fee prices: equal asks differ once each venue's fee is added", () => {
    const e: MarketEvent = {
      ...EVENT,
      outcomes: [{ name: 'Same', quotes: [q('kalshi', 0.43, 1, 's'), q('polymarket', 0.43, 1, 's')] }],
    };
    const [o] = buildSpecificEvent(e, CHANGED_AT, opts, ctx).data.outcomes;
    // Kalshi 0.4472; Polymarket 0.43 + 0.04 × 0.43 × 0.57 = 0.43 + 0.009804 = 0.439804; 0.7396 cents apart
    expect([o!.operatorAPrice, o!.operatorBPrice, o!.spreadCents]).toEqual([0.4472, 0.439804, 0.7396]);
  });

  it('with a limit returns the highest combined volume first', () => {
    // combined: Alpha 1,500, Gamma 5,100, Delta 3,000 -> Gamma, Delta, Alpha
    const two = buildSpecificEvent(EVENT, CHANGED_AT, { ...opts, limit: 2 }, ctx);
    expect(() => SpecificEventPayload.parse(two)).not.toThrow();
    expect(two.data.outcomes.map((o) => o.name)).toEqual(['Gamma', 'Delta']);
    const one = buildSpecificEvent(EVENT, CHANGED_AT, { ...opts, limit: 1 }, ctx);
    expect(one.data.outcomes.map((o) => o.name)).toEqual(['Gamma']);
    const many = buildSpecificEvent(EVENT, CHANGED_AT, { ...opts, limit: 100 }, ctx);
    expect(many.data.outcomes.map((o) => o.name)).toEqual(['Gamma', 'Delta', 'Alpha']);
  });

  it('never invents a price: an event where A and B share no outcome has no outcomes', () => {
    const e: MarketEvent = {
      ...EVENT,
      outcomes: [
        { name: 'OnlyA', quotes: [q('kalshi', 0.5, 1, 'a')] },
        { name: 'OnlyB', quotes: [q('polymarket', 0.5, 1, 'b')] },
      ],
    };
    const payload = buildSpecificEvent(e, CHANGED_AT, opts, ctx);
    expect(() => SpecificEventPayload.parse(payload)).not.toThrow();
    expect(payload.data.outcomes).toEqual([]);
  });

  it('honours configurable operators A and B', () => {
    const payload = buildSpecificEvent(
      EVENT,
      CHANGED_AT,
      { ...opts, operatorA: 'polymarket', operatorB: 'kalshi' },
      ctx,
    );
    expect(payload.data.operators.operatorA).toEqual({ id: 'polymarket', name: 'Polymarket', allowed_in_geo: false });
    // Beta is listed only by kalshi (now B) and Epsilon only by polymarket (now A): both still left out.
    expect(payload.data.outcomes.map((o) => [o.name, o.operatorAPrice, o.operatorBPrice])).toEqual([
      ['Alpha', 0.5599, 0.5872],
      ['Gamma', 0.3084, 0.1063],
      ['Delta', 0.589744, 0.3045],
    ]);
  });

  it.each([
    ['US-NJ', true, false],
    ['US-NV', false, false],
    ['US', false, false],
    ['GB', false, false],
    ['DE', false, false],
    ['FR', false, false],
    ['CA', false, false],
    ['AU', false, false],
    ['BR', false, false],
    ['IN', false, false],
    ['JP', false, false],
    ['ZZ', false, false],
  ])('says for geo=%s whether A (Kalshi) and B (Polymarket) may be shown: %s, %s', (country, a, b) => {
    const payload = buildSpecificEvent(EVENT, CHANGED_AT, opts, catalogView(country));
    expect(payload.data.resolved_geo).toBe(country.slice(0, 2));
    expect(payload.data.resolved_region).toBe(country.length > 2 ? country : null);
    expect(payload.data.operators.operatorA.allowed_in_geo).toBe(a);
    expect(payload.data.operators.operatorB.allowed_in_geo).toBe(b);
    // the comparison data itself is the same whatever the geo
    expect(payload.data.outcomes.length).toBe(3);
  });
});
