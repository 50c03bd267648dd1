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

  it('flags the lowest YES price as best odds, and every operator tied for it', () => {
    const [cut, hold] = payload.outcomes;
    expect(cut!.comparison_pool.map((e) => [e.operator_id, e.is_best_odds])).toEqual([
      ['kalshi', true],
      ['polymarket', false],
    ]);
    expect(hold!.comparison_pool.map((e) => [e.operator_id, e.is_best_odds])).toEqual([
      ['kalshi', true],
      ['polymarket', true],
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
    // 0.60 -> 60¢, 0.70 -> 70¢, 0.35 -> 35¢
    ['cents', ['60¢', '70¢'], ['35¢', '35¢']],
    ['implied_pct', ['60.0%', '70.0%'], ['35.0%', '35.0%']],
    // 1/0.6 = 1.666.. -> 1.67; 1/0.7 = 1.428.. -> 1.43; 1/0.35 = 2.857.. -> 2.86
    ['decimal', ['1.67', '1.43'], ['2.86', '2.86']],
  ] as const)('display_format %s', (format, cut, hold) => {
    const p = buildEventWidget(EVENT, CHANGED_AT, format, ctx);
    expect(() => EventWidgetPayload.parse(p)).not.toThrow();
    expect(p.outcomes[0]!.comparison_pool.map((e) => e.contract_price)).toEqual(cut);
    expect(p.outcomes[1]!.comparison_pool.map((e) => e.contract_price)).toEqual(hold);
    // The format changes strings only, never the maths.
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
          country: undefined,
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
