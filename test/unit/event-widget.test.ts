import { describe, expect, it } from 'vitest';
import { verifyClick } from '../../src/tracking/click-links.js';
import { buildEventWidget } from '../../src/widgets/event-widget.js';
import { EventWidgetPayload } from '../../src/widgets/payload-schemas.js';
import type { MarketEvent } from '../../src/model/index.js';
import { CLICK_SECRET, makeContext } from './_widget-fixtures.js';

const CHANGED_AT = '2026-11-22T14:00:00.000Z';

const url = (op: string, path: string) => `https://${op}.com/markets/${path}`;

const EVENT: MarketEvent = {
  slug: 'fed-december-2026',
  question: 'What will the Fed decide in December 2026?',
  category: 'economics',
  closesAt: '2026-12-16T19:00:00.000Z',
  outcomes: [
    {
      name: 'Cut 25bp',
      quotes: [
        { operatorId: 'kalshi', yesPrice: 0.6, volume24hUsd: 300, marketUrl: url('kalshi', 'kxfed-cut25') },
        { operatorId: 'polymarket', yesPrice: 0.7, volume24hUsd: 100, marketUrl: url('polymarket', 'fed-cut-25') },
        // Unknown operator: cheapest and deepest, so it would change every figure if it leaked in.
        { operatorId: 'ghostbook', yesPrice: 0.1, volume24hUsd: 1_000_000, marketUrl: 'https://ghostbook.example/x' },
      ],
    },
    {
      name: 'Hold',
      quotes: [
        { operatorId: 'kalshi', yesPrice: 0.35, volume24hUsd: 2_500, marketUrl: url('kalshi', 'kxfed-hold') },
        { operatorId: 'polymarket', yesPrice: 0.35, volume24hUsd: 1_500, marketUrl: url('polymarket', 'fed-hold') },
      ],
    },
    {
      // Only an unknown operator quotes it: the outcome has nothing to show.
      name: 'Hike',
      quotes: [{ operatorId: 'ghostbook', yesPrice: 0.05, volume24hUsd: 10, marketUrl: 'https://ghostbook.example/y' }],
    },
    {
      name: 'Cut 50bp',
      quotes: [
        { operatorId: 'kalshi', yesPrice: 0.02, volume24hUsd: 0, marketUrl: url('kalshi', 'kxfed-cut50') },
        { operatorId: 'polymarket', yesPrice: 0.04, volume24hUsd: 0, marketUrl: url('polymarket', 'fed-cut-50') },
      ],
    },
  ],
};

/** Three mutually exclusive outcomes; C is quoted only by Polymarket. */
const EXCLUSIVE: MarketEvent = {
  ...EVENT,
  exclusive: true,
  outcomes: [
    {
      name: 'A',
      quotes: [{ operatorId: 'kalshi', yesPrice: 0.56, yesBid: 0.54, volume24hUsd: 1, marketUrl: url('kalshi', 'a') }],
    },
    {
      name: 'B',
      quotes: [{ operatorId: 'kalshi', yesPrice: 0.36, yesBid: 0.34, volume24hUsd: 1, marketUrl: url('kalshi', 'b') }],
    },
    {
      name: 'C',
      quotes: [{ operatorId: 'polymarket', yesPrice: 0.16, volume24hUsd: 1, marketUrl: url('polymarket', 'c') }],
    },
  ],
};

describe('buildEventWidget', () => {
  const ctx = makeContext();
  const payload = buildEventWidget(EVENT, CHANGED_AT, 'cents', ctx);

  it('produces a payload that satisfies the schema', () => {
    expect(() => EventWidgetPayload.parse(payload)).not.toThrow();
    expect(payload.widget_class).toBe('event-specific');
    expect(payload.event_slug).toBe('fed-december-2026');
    expect(payload.event_question).toBe('What will the Fed decide in December 2026?');
    expect(payload.last_verified_timestamp).toBe(CHANGED_AT);
  });

  it('drops quotes of unknown operators and outcomes left with none', () => {
    expect(payload.outcomes.map((o) => o.outcome_name)).toEqual(['Cut 25bp', 'Hold', 'Cut 50bp']);
    const cut = payload.outcomes[0]!;
    expect(cut.comparison_pool.map((e) => e.operator_id)).toEqual(['kalshi', 'polymarket']);
  });

  it('weights the aggregated probability by volume and sums the depth', () => {
    const [cut, hold, cut50] = payload.outcomes;
    // (0.60*300 + 0.70*100) / 400 = 250/400 = 0.625 -> 62.5
    expect(cut!.aggregated_probability_pct).toBe(62.5);
    // 300 + 100 = 400 -> "$400.00"
    expect(cut!.market_depth_volume).toBe('$400.00');
    // both at 0.35 -> 35
    expect(hold!.aggregated_probability_pct).toBe(35);
    // 2,500 + 1,500 = 4,000 -> "$4K"
    expect(hold!.market_depth_volume).toBe('$4K');
    // no volume at all: plain mean (0.02 + 0.04) / 2 = 0.03 -> 3
    expect(cut50!.aggregated_probability_pct).toBe(3);
    expect(cut50!.market_depth_volume).toBe('$0.00');
  });

  it('rounds the probability to one decimal', () => {
    const event: MarketEvent = {
      ...EVENT,
      outcomes: [
        {
          name: 'Yes',
          quotes: [
            { operatorId: 'kalshi', yesPrice: 0.6, volume24hUsd: 1, marketUrl: url('kalshi', 'a') },
            { operatorId: 'polymarket', yesPrice: 0.61, volume24hUsd: 2, marketUrl: url('polymarket', 'a') },
          ],
        },
      ],
    };
    // (0.60*1 + 0.61*2) / 3 = 1.82/3 = 0.60666... -> 60.666...% -> 60.7
    expect(buildEventWidget(event, CHANGED_AT, 'cents', ctx).outcomes[0]!.aggregated_probability_pct).toBe(60.7);
  });

  it('uses mid prices where a bid exists', () => {
    const event: MarketEvent = {
      ...EVENT,
      outcomes: [
        {
          name: 'Yes',
          quotes: [
            { operatorId: 'kalshi', yesPrice: 0.62, yesBid: 0.58, volume24hUsd: 100, marketUrl: url('kalshi', 'a') },
            { operatorId: 'polymarket', yesPrice: 0.61, volume24hUsd: 300, marketUrl: url('polymarket', 'a') },
          ],
        },
      ],
    };
    // Kalshi mid (0.58 + 0.62) / 2 = 0.60; Polymarket has no bid: 0.61. (0.60*100 + 0.61*300) / 400 = 0.6075
    expect(buildEventWidget(event, CHANGED_AT, 'cents', ctx).outcomes[0]!.aggregated_probability_pct).toBe(60.8);
  });

  it('normalises exclusive outcomes so they sum to 100', () => {
    const event = EXCLUSIVE;
    // mids 0.55, 0.35, 0.16 (no bid) sum to 1.06: 0.55/1.06 = 51.9%, 0.35/1.06 = 33.0%, 0.16/1.06 = 15.1%
    const pcts = buildEventWidget(event, CHANGED_AT, 'cents', ctx).outcomes.map((o) => o.aggregated_probability_pct);
    expect(pcts).toEqual([51.9, 33, 15.1]);
    expect(pcts.reduce((s, p) => s + p, 0)).toBeCloseTo(100, 6);
    // The same outcomes not marked exclusive (nested deadlines, independent binaries) stay raw.
    const raw = buildEventWidget({ ...event, exclusive: false }, CHANGED_AT, 'cents', ctx).outcomes;
    expect(raw.map((o) => o.aggregated_probability_pct)).toEqual([55, 35, 16]);
  });

  it('keeps a hidden outcome in the normalisation: the outcomes a visitor sees are never inflated', () => {
    const event = EXCLUSIVE;
    // A US visitor may not see Polymarket, so C is not listed, but its 0.16 still counts:
    // 0.55/1.06 = 51.9%, 0.35/1.06 = 33.0% (not 0.55/0.90 = 61.1%, 0.35/0.90 = 38.9%).
    const usOnly = makeContext({
      operatorOn: (id, surface) => (id === 'polymarket' ? undefined : ctx.operatorOn(id, surface)),
    });
    const shown = buildEventWidget(event, CHANGED_AT, 'cents', usOnly).outcomes;
    expect(shown.map((o) => [o.outcome_name, o.aggregated_probability_pct])).toEqual([
      ['A', 51.9],
      ['B', 33],
    ]);
  });

  it('flags the lowest after-fee YES price as best odds', () => {
    const [cut, hold] = payload.outcomes;
    // Kalshi 0.60 + 1.68/100 = 0.6168; Polymarket (economics 0.05) 0.70 + 1.05/100 = 0.7105
    expect(cut!.comparison_pool.map((e) => [e.operator_id, e.is_best_odds])).toEqual([
      ['kalshi', true],
      ['polymarket', false],
    ]);
    // Tied at 0.35 before fees; after them Kalshi 0.35 + 1.60/100 (1.5925 rounded up) = 0.366 and
    // Polymarket 0.35 + 1.1375/100 = 0.361375, so the flag moves to Polymarket alone.
    expect(hold!.comparison_pool.map((e) => [e.operator_id, e.is_best_odds])).toEqual([
      ['kalshi', false],
      ['polymarket', true],
    ]);
  });

  it('moves the best-odds flag when the fees reorder the prices', () => {
    const event: MarketEvent = {
      ...EVENT,
      category: 'politics',
      outcomes: [
        {
          name: 'Yes',
          quotes: [
            { operatorId: 'kalshi', yesPrice: 0.5, volume24hUsd: 1, marketUrl: url('kalshi', 'a') },
            { operatorId: 'polymarket', yesPrice: 0.505, volume24hUsd: 1, marketUrl: url('polymarket', 'a') },
          ],
        },
      ],
    };
    // Before fees Kalshi's 0.50 is cheaper. After: Kalshi 0.50 + 1.75/100 = 0.5175; Polymarket
    // (politics 0.04) 0.505 + 0.04 × 0.505 × 0.495 = 0.505 + 0.009999 = 0.514999.
    const pool = buildEventWidget(event, CHANGED_AT, 'implied_pct', ctx).outcomes[0]!.comparison_pool;
    expect(pool.map((e) => [e.operator_id, e.is_best_odds, e.contract_price])).toEqual([
      ['kalshi', false, '51.8%'],
      ['polymarket', true, '51.5%'],
    ]);
  });

  it('shows names, per-operator volumes, and promo_applied only for operators with a promo code', () => {
    const [kalshi, poly] = payload.outcomes[0]!.comparison_pool;
    expect(kalshi!.operator_name).toBe('Kalshi');
    expect(poly!.operator_name).toBe('Polymarket');
    expect(kalshi!.contract_volume).toBe('$300.00');
    expect(poly!.contract_volume).toBe('$100.00');
    expect(kalshi!.promo_applied).toBe('PWKALSHI');
    expect('promo_applied' in poly!).toBe(false);
    const hold = payload.outcomes[1]!.comparison_pool;
    expect(hold.map((e) => e.contract_volume)).toEqual(['$2.5K', '$1.5K']);
  });

  it.each([
    // After fees (economics): 0.6168 -> 62¢, 0.7105 -> 71¢; Hold 0.366 -> 37¢, 0.361375 -> 36¢
    ['cents', ['62¢', '71¢'], ['37¢', '36¢']],
    ['implied_pct', ['61.7%', '71.1%'], ['36.6%', '36.1%']],
    // 1/0.6168 = 1.621.. -> 1.62; 1/0.7105 = 1.407.. -> 1.41; 1/0.366 = 2.732.. -> 2.73; 1/0.361375 = 2.767.. -> 2.77
    ['decimal', ['1.62', '1.41'], ['2.73', '2.77']],
  ] as const)('display_format %s', (format, cut, hold) => {
    const p = buildEventWidget(EVENT, CHANGED_AT, format, ctx);
    expect(() => EventWidgetPayload.parse(p)).not.toThrow();
    expect(p.outcomes[0]!.comparison_pool.map((e) => e.contract_price)).toEqual(cut);
    expect(p.outcomes[1]!.comparison_pool.map((e) => e.contract_price)).toEqual(hold);
    // The format changes strings only, never the maths; probabilities are fee-free.
    expect(p.outcomes[0]!.aggregated_probability_pct).toBe(62.5);
    expect(p.outcomes[0]!.comparison_pool.map((e) => e.is_best_odds)).toEqual([true, false]);
  });

  it('builds signed deep links whose destination is the quote market URL', () => {
    const now = new Date('2026-11-22T14:00:00.000Z');
    for (const [i, outcome] of payload.outcomes.entries()) {
      const source = EVENT.outcomes.filter((o) => o.name === outcome.outcome_name)[0]!;
      for (const entry of outcome.comparison_pool) {
        const link = new URL(entry.deep_link);
        expect(`${link.origin}${link.pathname}`).toBe('https://pw.example/v1/click');
        const verified = verifyClick(link.search.slice(1), CLICK_SECRET, now);
        expect(verified.ok, `outcome ${i} ${entry.operator_id}`).toBe(true);
        if (!verified.ok) continue;
        const quote = source.quotes.find((q) => q.operatorId === entry.operator_id)!;
        expect(verified.target).toEqual({
          operatorId: entry.operator_id,
          widget: 'event-specific',
          placement: 'fed-december-2026',
          destination: quote.marketUrl,
          country: 'US-NJ',
          advertiserId: 'acme-media',
          impressionId: 'imp-0001',
          expiresAt: 1_900_000_000,
        });
      }
    }
  });

  it('leaves advertiserId out of the link when the context has none', () => {
    const p = buildEventWidget(EVENT, CHANGED_AT, 'cents', makeContext({ advertiserId: undefined }));
    const link = new URL(p.outcomes[0]!.comparison_pool[0]!.deep_link);
    expect(link.searchParams.has('a')).toBe(false);
  });
});

describe('buildEventWidget: what the payload says it shows', () => {
  const ctx = makeContext();
  // Two venues whose after-fee prices differ below a cent: the same "36¢" shown, so both are best in
  // cents; in percent (one decimal) or decimal odds the difference shows, and one of them leads.
  const close: MarketEvent = {
    ...EVENT,
    outcomes: [
      {
        name: 'Hold',
        quotes: [
          {
            operatorId: 'kalshi',
            yesPrice: 0.34,
            volume24hUsd: 10,
            marketUrl: url('kalshi', 'h'),
            updatedAt: '2026-11-22T13:59:00.000Z',
          },
          { operatorId: 'polymarket', yesPrice: 0.351, volume24hUsd: null, marketUrl: url('polymarket', 'h') },
        ],
      },
    ],
  };
  const pool = (format: 'cents' | 'implied_pct' | 'decimal') =>
    buildEventWidget(close, CHANGED_AT, format, ctx).outcomes[0]!.comparison_pool;

  it('flags every operator showing the lowest price as displayed, per format', () => {
    // In cents both show the same figure: both flagged.
    const cents = pool('cents');
    expect(cents[0]!.contract_price).toBe(cents[1]!.contract_price);
    expect(cents.map((e) => e.is_best_odds)).toEqual([true, true]);
    // In percent (one decimal) the difference shows: only the lower figure is flagged.
    const pct = pool('implied_pct');
    const figures = pct.map((e) => Number.parseFloat(e.contract_price));
    expect(figures[0]).not.toBe(figures[1]);
    expect(pct.map((e) => e.is_best_odds)).toEqual(figures.map((f) => f === Math.min(...figures)));
  });

  it("shows each venue's own time of its quote, and an unknown volume as null, never 0", () => {
    const [kalshi, poly] = pool('cents');
    expect([kalshi!.updated_at, poly!.updated_at]).toEqual(['2026-11-22T13:59:00.000Z', null]);
    expect(poly!.contract_volume).toBeNull();
    expect(buildEventWidget(close, CHANGED_AT, 'cents', ctx).outcomes[0]!.market_depth_volume).toBeNull();
  });
});
