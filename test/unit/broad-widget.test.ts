import { describe, expect, it } from 'vitest';
import { operatorById } from '../../src/catalog/operators.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import type { MetricsData } from '../../src/model/index.js';
import { clickUrl, verifyClick } from '../../src/tracking/click-links.js';
import { impressionUrl } from '../../src/tracking/impression-links.js';
import type { OperatorSignals } from '../../src/tracking/ranking-inputs.js';
import { buildBroadWidget, type BroadWidgetInput } from '../../src/widgets/broad-widget.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import type { WidgetContext } from '../../src/widgets/context.js';

const BASE = 'https://pw.example';
const SECRET = 'broad-widget-test-secret-0123456789abcdef';
const NOW = new Date('2026-11-22T14:00:00.000Z');
const EXPIRES = Math.floor(NOW.getTime() / 1000) + 3600;

const ctx = (country: string, advertiserId?: string): WidgetContext => ({
  ...shownOperators(country),
  clickUrl: (t) => clickUrl(BASE, SECRET, t),
  impressionUrl: (widget, operatorIds) => impressionUrl(BASE, SECRET, { widget, operatorIds, expiresAt: EXPIRES }),
  linkExpiresAt: EXPIRES,
  impressionId: 'imp-broad-1',
  advertiserId,
});

const op = (
  operatorId: string,
  volume: number,
  liquidity: number,
  events: number,
  byCat: MetricsData['operators'][number]['volumeByCategoryUsd'],
) => ({
  operatorId,
  volume24hUsd: volume,
  openInterestUsd: volume * 2,
  liquidityUsd: liquidity,
  activeEvents: events,
  volumeByCategoryUsd: byCat,
});

const METRICS: MetricsData = {
  operators: [
    op('bet365', 60_000_000, 4_800_000, 30, { sports: 60_000_000 }),
    op('betfair', 80_000_000, 6_400_000, 25, { sports: 80_000_000 }),
    op('betmgm', 40_000_000, 3_200_000, 0, { sports: 40_000_000 }),
    op('kalshi', 50_000_000, 15_000_000, 40, { politics: 30_000_000, economics: 20_000_000 }),
    op('polymarket', 70_000_000, 31_000_000, 50, { politics: 50_000_000, crypto: 20_000_000 }),
    op('unknown-op', 999_000_000, 0, 1, { culture: 999_000_000 }),
  ],
};

const input = (over: Partial<BroadWidgetInput> = {}): BroadWidgetInput => ({
  metrics: METRICS,
  changedAt: '2026-11-22T13:59:00.000Z',
  locale: 'en',
  currency: 'USD',
  rate: 1,
  limit: 10,
  signals: new Map<string, OperatorSignals>(),
  ctrPrior: { mean: 0, weight: 1000 },
  weights: { volume: 0.5, oiAccel: 0.2, ctr: 0.3 },
  ...over,
});

describe('buildBroadWidget', () => {
  it('lists only operators allowed in the country, ranked, in the spec shape', () => {
    const { payload, operatorIds } = buildBroadWidget(input(), ctx('GB'));
    BroadWidgetPayload.parse(payload);
    expect(payload.widget_class).toBe('broad');
    expect(payload.resolved_geo).toBe('GB');
    expect(payload.timestamp).toBe('2026-11-22T13:59:00.000Z');
    // by volume alone (no OI or CTR signal): betfair 80M, bet365 60M, betmgm 40M
    expect(operatorIds).toEqual(['betfair', 'bet365', 'betmgm']);
    expect(payload.operators.map((o) => [o.rank, o.operator_name])).toEqual([
      [1, 'Betfair Exchange'],
      [2, 'bet365'],
      [3, 'BetMGM'],
    ]);
    const first = payload.operators[0]!;
    expect(first.rating).toBe('4.2/5');
    // a sportsbook has no order book: no liquidity is shown for one, whatever a source reports
    expect(first.metrics).toEqual({ volume_24h: '$80M', avg_value_per_event: '$3.2M', total_liquidity: null });
    const offer = operatorById('betfair')!.offers[0]!;
    expect(first.incentives).toEqual({
      promo_text: offer.copy.en.promoText,
      promo_code: 'EXCH100',
      cta_label: 'Join the exchange',
      promo_terms: offer.copy.en.terms,
      promo_terms_url: offer.termsUrl,
    });
    // GB's disclosures, in the widget's language
    expect(payload.resolved_region).toBeNull();
    expect(payload.disclosures).toEqual({
      min_age: 18,
      ad_label: 'Advertisement',
      responsible_gambling: {
        text: expect.stringContaining('0808 8020 133'),
        url: 'https://www.gamcare.org.uk/',
        phone: '0808 8020 133',
      },
    });
    expect(first.routing.app_store_available).toEqual(['iOS', 'Google Play']);
    // no active events: average is zero, not a division by zero
    expect(payload.operators[2]!.metrics.avg_value_per_event).toBe('$0.00');
  });

  it('trending summary is market-wide over catalog operators (unknown ids left out)', () => {
    const { payload } = buildBroadWidget(input(), ctx('DE'));
    // 60 + 80 + 40 + 50 + 70 = 300M; sports 180M beats politics 80M
    expect(payload.trending_summary).toEqual({ global_24h_volume: '$300M', highest_volume_category: 'Sports' });
    // DE: nothing listed there (deny by default), so nothing shown and nothing to disclose
    expect(payload.operators).toEqual([]);
    expect(payload.disclosures).toBeNull();
  });

  it('converts money, localizes copy and signs every link with jurisdiction, placement and advertiser', () => {
    const { payload } = buildBroadWidget(input({ locale: 'es', currency: 'EUR', rate: 0.92 }), ctx('ES', 'acme-media'));
    const entry = payload.operators[0]!;
    expect(entry.metrics.volume_24h).toBe('€55.2M');
    expect(payload.trending_summary.global_24h_volume).toBe('€276M');
    // bet365's offer is a US offer, and Spain bans bonuses anyway: none, and a neutral call to action
    expect(entry.incentives).toEqual({
      promo_text: '',
      promo_code: '',
      cta_label: 'Visitar sitio',
      promo_terms: '',
      promo_terms_url: '',
    });
    expect(payload.disclosures?.ad_label).toBe('Publicidad');
    const url = new URL(entry.routing.web_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/v1/click`);
    const verified = verifyClick(url.search.slice(1), SECRET, NOW);
    expect(verified).toEqual({
      ok: true,
      target: {
        operatorId: 'bet365',
        widget: 'broad',
        placement: 'rank-1',
        country: 'ES',
        advertiserId: 'acme-media',
        impressionId: 'imp-broad-1',
        expiresAt: EXPIRES,
        destination: undefined,
      },
    });
  });

  it("shows the visitor jurisdiction's offer in the visitor's language, falling back to English copy and terms", () => {
    const { payload } = buildBroadWidget(input({ locale: 'pt' }), ctx('US-NJ'));
    expect(payload.resolved_geo).toBe('US');
    expect(payload.resolved_region).toBe('US-NJ');
    expect(payload.disclosures).toMatchObject({
      min_age: 21,
      ad_label: 'Publicidade',
      responsible_gambling: { phone: '1-800-GAMBLER' },
    });
    const bet365 = payload.operators.find((o) => o.operator_name === 'bet365')!;
    const offer = operatorById('bet365')!.offers[0]!;
    expect(bet365.incentives).toEqual({
      promo_text: offer.copy.pt!.promoText,
      promo_code: 'WIRE365',
      cta_label: offer.copy.pt!.ctaLabel,
      // no Portuguese terms written: the English ones travel with the offer
      promo_terms: offer.copy.en.terms,
      promo_terms_url: offer.termsUrl,
    });
    const enOnly = { ...offer, copy: { en: offer.copy.en } };
    const { payload: en } = buildBroadWidget(input({ locale: 'pt' }), {
      ...ctx('US-NJ'),
      offerFor: (id) => (id === 'bet365' ? enOnly : undefined),
    });
    expect(en.operators.find((o) => o.operator_name === 'bet365')!.incentives).toEqual({
      promo_text: offer.copy.en.promoText,
      promo_code: 'WIRE365',
      cta_label: offer.copy.en.ctaLabel,
      promo_terms: offer.copy.en.terms,
      promo_terms_url: offer.termsUrl,
    });
    // an operator with no offer there: no promo, a neutral call to action in Portuguese
    expect(en.operators.find((o) => o.operator_name === 'Kalshi')!.incentives).toEqual({
      promo_text: '',
      promo_code: '',
      cta_label: 'Visitar site',
      promo_terms: '',
      promo_terms_url: '',
    });
  });

  it('shows unknown liquidity as null, never as zero', () => {
    const metrics: MetricsData = {
      operators: METRICS.operators.map((m) =>
        m.operatorId === 'kalshi' ? { ...m, liquidityUsd: null, openInterestUsd: null } : m,
      ),
    };
    const { payload } = buildBroadWidget(input({ metrics }), ctx('US-NJ'));
    BroadWidgetPayload.parse(payload);
    const byName = new Map(payload.operators.map((o) => [o.operator_name, o.metrics.total_liquidity]));
    expect(byName.get('Kalshi')).toBeNull();
    expect(
      buildBroadWidget(input(), ctx('US-NJ')).payload.operators.find((o) => o.operator_name === 'Kalshi')!.metrics
        .total_liquidity,
    ).toBe('$15M');
  });

  it('limit cuts the ranked list; ZZ lists nothing', () => {
    const us = buildBroadWidget(input({ limit: 1 }), ctx('US-NJ'));
    // New Jersey candidates: bet365 60M, kalshi 50M, betmgm 40M (betfair and polymarket are not allowed)
    expect(us.operatorIds).toEqual(['bet365']);
    expect(us.payload.operators[0]!.rank).toBe(1);
    const zz = buildBroadWidget(input(), ctx('ZZ'));
    expect(zz.payload.operators).toEqual([]);
    expect(zz.payload.resolved_geo).toBe('ZZ');
  });

  it('clicks recorded for a lower-volume operator lift it by the formula', () => {
    // GB: betfair 80M (n 1), bet365 60M (n 0.5), betmgm 40M (n 0). Give betmgm a strong CTR:
    // mean = (20 + 20 + 600) / 30000; betmgm smoothed CTR is the highest (n 1), the others equal (n 0)
    // scores: betfair 0.5, bet365 0.25, betmgm 0 + 0.3 = 0.3 → betfair, betmgm, bet365
    const signals = new Map<string, OperatorSignals>([
      ['betfair', { oiAcceleration: 0, clicks: 20, impressions: 10_000 }],
      ['bet365', { oiAcceleration: 0, clicks: 20, impressions: 10_000 }],
      ['betmgm', { oiAcceleration: 0, clicks: 600, impressions: 10_000 }],
    ]);
    const { operatorIds } = buildBroadWidget(
      input({ signals, ctrPrior: { mean: 640 / 30_000, weight: 1000 } }),
      ctx('GB'),
    );
    expect(operatorIds).toEqual(['betfair', 'betmgm', 'bet365']);
  });
});
