import { describe, expect, it } from 'vitest';
import { operatorById } from '../../src/catalog/operators.js';
import type { LiveView } from '../../src/live/engine.js';
import type { VenueQuoteMessage } from '../../src/model/index.js';
import { VENUE_QUOTE_MAX_AGE_MS } from '../../src/live/live-quotes.js';
import { LIVE_VENUES, type LiveVenue } from '../../src/live/venues.js';
import { verifyClick } from '../../src/tracking/click-links.js';
import { buildLiveMarketWidget, type LiveMarketOptions } from '../../src/widgets/live-market-widget.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { venueQuote } from '../support/live.js';
import { CLICK_SECRET, OPERATORS, makeContext } from './_widget-fixtures.js';

const t = (iso: string) => Date.parse(iso);

// The 5-minute window 14:05 -> 14:10 UTC, and the 15-minute one 14:00 -> 14:15.
const W5 = { horizonMinutes: 5, startMs: t('2026-11-22T14:05:00.000Z'), endMs: t('2026-11-22T14:10:00.000Z') };
const W15 = { horizonMinutes: 15, startMs: t('2026-11-22T14:00:00.000Z'), endMs: t('2026-11-22T14:15:00.000Z') };
// Two minutes before expiry.
const NOW = t('2026-11-22T14:08:00.000Z');
const TICK = t('2026-11-22T14:07:59.500Z');
// 0.55 annualized: 0.3025 / 31,536,000 per second.
const VAR_55 = 0.3025 / 31_536_000;

const POLY: LiveVenue = { operatorId: 'polymarket', horizons: [5, 15], margin: 0.02, skew: 0.002, tick: 0.001 };
const KALSHI: LiveVenue = { operatorId: 'kalshi', horizons: [5, 15], margin: 0.03, skew: -0.002, tick: 0.01 };
// Not in the fixture catalog: never shown.
const GHOST: LiveVenue = { operatorId: 'ghostbook', horizons: [5, 15], margin: 0, skew: 0, tick: 0.001 };
// In the catalog, but lists the 15-minute horizon only.
const DK15: LiveVenue = { operatorId: 'draftkings', horizons: [15], margin: 0.05, skew: 0, tick: 0.01 };

const OPTS: LiveMarketOptions = {
  refreshIntervalSeconds: 1,
  staleAfterMs: 30_000,
  venues: [POLY, KALSHI, GHOST, DK15],
  modelMissingVenues: true,
};
/** Real sources: only venues with a live quote are shown. */
const REAL: LiveMarketOptions = { ...OPTS, modelMissingVenues: false };

function view(over: Partial<LiveView> = {}): LiveView {
  return {
    asset: 'BTC',
    horizon: 5,
    window: W5,
    strike: 97_250.12,
    strikeStatus: 'set',
    spot: 97_262.62,
    lastTickMs: TICK,
    variance: VAR_55,
    quotes: [],
    path: [
      [W5.startMs, 97_250.12],
      [TICK, 97_262.62],
    ],
    ...over,
  };
}

/** A venue's quote for the window containing NOW, as the wire carries it. */
const quote = (operatorId: string, up: number | null, down: number | null, over: Partial<VenueQuoteMessage> = {}) =>
  venueQuote(operatorId, up, down, NOW, over);

function build(v: LiveView, nowMs = NOW, opts: LiveMarketOptions = OPTS, ctx = makeContext()) {
  const payload = buildLiveMarketWidget(v, nowMs, opts, ctx);
  // Every payload, whatever its status, satisfies the published schema.
  expect(() => LiveMarketPayload.parse(payload)).not.toThrow();
  return payload;
}

const byName = (p: LiveMarketPayload) => new Map(p.providers_pool.map((e) => [e.operator_name, e]));

describe('buildLiveMarketWidget: open market', () => {
  const p = buildLiveMarketWidget(view(), NOW, OPTS, makeContext());

  it('satisfies the payload schema', () => {
    expect(() => LiveMarketPayload.parse(p)).not.toThrow();
  });

  it('describes the window', () => {
    expect(p.widget_class).toBe('live-market');
    expect(p.refresh_interval_seconds).toBe(1);
    expect(p.underlying_asset).toBe('BTC');
    expect(p.market_status).toBe('open');
    expect(p.expiration_horizon).toBe('5 minutes');
    expect(p.window_start).toBe('2026-11-22T14:05:00.000Z');
    expect(p.expires_at).toBe('2026-11-22T14:10:00.000Z');
    // 14:10:00 - 14:08:00 = 120 s
    expect(p.seconds_left).toBe(120);
    expect(p.spot_price).toBe('$97,262.62');
    // The path in seconds since the window start: the strike at 0, the tick at TICK.
    expect(p.spot_path).toEqual([
      [0, 97_250.12],
      [Math.floor((TICK - W5.startMs) / 1000), 97_262.62],
    ]);
    // The data last changed with the last tick, not at request time.
    expect(p.timestamp).toBe('2026-11-22T14:07:59.500Z');
  });

  it('asks about the asset, the strike and the expiry time in UTC', () => {
    expect(p.active_micro_question).toContain('BTC');
    expect(p.active_micro_question).toContain('$97,250.12');
    expect(p.active_micro_question).toContain('14:10 UTC');
  });

  it('lists one provider per catalog venue listing the horizon', () => {
    // ghostbook: unknown to the catalog; draftkings: 15-minute only.
    expect(p.providers_pool.map((e) => e.operator_name).sort()).toEqual(['Kalshi', 'Polymarket']);
  });

  it('shows the signed spot difference and the strike at full precision', () => {
    for (const e of p.providers_pool) {
      // 97,262.62 - 97,250.12 = +12.50
      expect(e.live_metrics.spot_difference).toBe('+$12.50');
      expect(e.live_metrics.target_price).toBe('$97,250.12');
    }
  });

  it('prices each venue from the model, adds its taker fee and prints 1/price multipliers', () => {
    // σ²T = 9.59221e-9 * 120 = 1.1510654e-6, σ√T = 0.0010728772
    // ln(97262.62 / 97250.12) = 1.2852629e-4
    // d2 = (1.2852629e-4 - 5.755327e-7) / 0.0010728772 = 0.1192595 -> fair up N(d2) = 0.5474651
    // Polymarket: up 0.5474651 + 0.01 + 0.002 = 0.5594651 -> 0.560; down 0.4525349 + 0.008 = 0.4605349 -> 0.461
    //   fee (crypto 0.07, 100 contracts): 7 x 0.56 x 0.44 = 1.7248 -> +0.017248 = 0.577248 -> 1/ = 1.7324 -> x1.73
    //   7 x 0.461 x 0.539 = 1.739353 -> 1.73935 -> +0.0173935 = 0.4783935 -> 1/ = 2.0903 -> x2.09; overround 1.0556415
    // Kalshi: up 0.5474651 + 0.015 - 0.002 = 0.5604651 -> 0.57; down 0.4525349 + 0.017 = 0.4695349 -> 0.47
    //   fee (0.07, cent up per 100): 7 x 0.57 x 0.43 = 1.7157 -> 1.72 -> 0.5872 -> 1/ = 1.7030 -> x1.70
    //   7 x 0.47 x 0.53 = 1.7437 -> 1.75 -> 0.4875 -> 1/ = 2.0513 -> x2.05; overround 1.0747
    const m = byName(p);
    expect(m.get('Polymarket')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.73', payout_down: 'x2.09' });
    expect(m.get('Kalshi')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.70', payout_down: 'x2.05' });
  });

  it('flags the lowest after-fee overround as best odds', () => {
    const m = byName(p);
    // 1.0556415 < 1.0747
    expect(m.get('Polymarket')!.is_best_odds).toBe(true);
    expect(m.get('Kalshi')!.is_best_odds).toBe(false);
  });

  it('links through signed click URLs for the right operator and placement', () => {
    for (const e of p.providers_pool) {
      const url = new URL(e.incentives.cta_url);
      expect(url.pathname).toBe('/v1/click');
      const r = verifyClick(url.search.slice(1), CLICK_SECRET, new Date(NOW));
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const op = OPERATORS.find((o) => o.name === e.operator_name)!;
      expect(r.target.operatorId).toBe(op.id);
      expect(r.target.widget).toBe('live-market');
      expect(r.target.placement).toBe('BTC:5');
      expect(r.target.advertiserId).toBe('acme-media');
      expect(r.target.impressionId).toBe('imp-0001');
    }
  });

  it("carries the coupon of the visitor country's offer, or an empty string", () => {
    expect(p.providers_pool.every((e) => e.incentives.coupon_value === '')).toBe(true);
    const base = makeContext();
    const ctx = makeContext({
      offerFor: (id) => {
        const offer = base.offerFor(id);
        return offer && id === 'kalshi' ? { ...offer, couponValue: '$10 bonus' } : offer;
      },
    });
    const m = byName(build(view(), NOW, OPTS, ctx));
    expect(m.get('Kalshi')!.incentives.coupon_value).toBe('$10 bonus');
    expect(m.get('Polymarket')!.incentives.coupon_value).toBe('');
  });
});

describe('buildLiveMarketWidget: other cases', () => {
  it('prints a negative spot difference with the sign before the symbol', () => {
    // 97,247.02 - 97,250.12 = -3.10
    const p = build(view({ spot: 97_247.02 }));
    expect(p.providers_pool.length).toBe(2);
    for (const e of p.providers_pool) expect(e.live_metrics.spot_difference).toBe('-$3.10');
    expect(p.spot_price).toBe('$97,247.02');
  });

  it('lists the 15-minute venues on a 15-minute window', () => {
    const p = build(view({ horizon: 15, window: W15 }));
    expect(p.expiration_horizon).toBe('15 minutes');
    expect(p.active_micro_question).toContain('14:15 UTC');
    // 14:15:00 - 14:08:00 = 420 s
    expect(p.seconds_left).toBe(420);
    expect(p.providers_pool.map((e) => e.operator_name).sort()).toEqual(['DraftKings', 'Kalshi', 'Polymarket']);
    expect(byName(p).get('DraftKings')!.live_metrics.multipliers.payout_up).toMatch(/^x\d+\.\d{2}$/);
  });

  it('with the built-in venues: Kalshi only on 15 minutes, venues unknown to the catalog left out', () => {
    const opts = { ...OPTS, venues: LIVE_VENUES };
    // limitless is not in the fixture catalog.
    expect(build(view(), NOW, opts).providers_pool.map((e) => e.operator_name)).toEqual(['Polymarket']);
    expect(
      build(view({ horizon: 15, window: W15 }), NOW, opts)
        .providers_pool.map((e) => e.operator_name)
        .sort(),
    ).toEqual(['Kalshi', 'Polymarket']);
  });

  it('rounds seconds_left up', () => {
    // 14:10:00.000 - 14:08:00.001 = 119.999 s -> 120
    expect(build(view(), NOW + 1).seconds_left).toBe(120);
    // 1 ms before expiry -> 1
    expect(build(view({ lastTickMs: W5.endMs - 2 }), W5.endMs - 1).seconds_left).toBe(1);
  });

  it('uses a venue quote instead of the model for that operator only, after its fee', () => {
    const quotes = [
      quote('polymarket', 0.6, 0.45),
      // A quote for an operator the catalog does not know stays out.
      quote('ghostbook', 0.01, 0.01),
    ];
    const p = build(view({ quotes }));
    const m = byName(p);
    expect([...m.keys()].sort()).toEqual(['Kalshi', 'Polymarket']);
    // 0.6 + 7 x 0.6 x 0.4 / 100 = 0.6168 -> 1/ = 1.6213 -> x1.62; 0.45 + 7 x 0.45 x 0.55 / 100 = 0.467325 -> 2.1398 -> x2.14
    expect(m.get('Polymarket')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.62', payout_down: 'x2.14' });
    // Kalshi stays on the model (x1.70 / x2.05, overround 1.0747) and now leads: 0.6168 + 0.467325 = 1.084125
    expect(m.get('Kalshi')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.70', payout_down: 'x2.05' });
    expect(m.get('Kalshi')!.is_best_odds).toBe(true);
    expect(m.get('Polymarket')!.is_best_odds).toBe(false);
  });

  it("prices Kalshi's ask of 0.51 with the cent-rounded 0.07 fee: 0.5275, x1.90", () => {
    // 0.07 x 100 x 0.51 x 0.49 = 1.7493 -> $1.75 per 100 -> 0.51 + 0.0175 = 0.5275 -> 1/ = 1.8957
    // 0.50: 0.07 x 100 x 0.25 = 1.75 exactly (no bump) -> 0.5175 -> 1/ = 1.9324
    const p = build(
      view({ horizon: 15, window: W15, quotes: [quote('kalshi', 0.51, 0.5, { horizonMinutes: 15 })] }),
      NOW,
      REAL,
    );
    expect(p.providers_pool.map((e) => [e.operator_name, e.live_metrics.multipliers])).toEqual([
      ['Kalshi', { payout_up: 'x1.90', payout_down: 'x1.93' }],
    ]);
  });

  it('does not offer a venue whose price after its fee shows x1.00 or reaches 1 on either side (no more than the stake back)', () => {
    // Kalshi at 0.98: 0.07 x 100 x 0.98 x 0.02 = 0.1372 -> $0.14 per 100 -> 0.9814, 1/ = 1.0190: x1.02, offered.
    // Polymarket at 0.997: 0.997 + 0.07 x 0.997 x 0.003 = 0.99721, 1/ = 1.0028: x1.00, not offered.
    // Limitless at 0.999 costs 0.999 / (1 - (0.03 - 0.026 x 0.999)) = 1.003 >= 1: not offered.
    const quotes = [
      quote('kalshi', 0.98, 0.03, { horizonMinutes: 15 }),
      quote('polymarket', 0.997, 0.01, { horizonMinutes: 15 }),
      quote('limitless', 0.999, 0.01, { horizonMinutes: 15 }),
    ];
    const p = build(view({ horizon: 15, window: W15, quotes }), NOW, REAL);
    expect(p.providers_pool.map((e) => [e.operator_id, e.live_metrics.multipliers.payout_up])).toEqual([
      ['kalshi', 'x1.02'],
    ]);
  });

  it('moves the best-odds flag when fees change the order', () => {
    // The real catalog, so Limitless (fee rate 0.03) is listed beside Polymarket (crypto 0.07).
    const ctx = makeContext({ operatorOn: (id) => operatorById(id) });
    const opts = { ...REAL, venues: LIVE_VENUES };
    // Before fees Polymarket is cheaper: 0.50 + 0.51 = 1.01 against Limitless 0.51 + 0.51 = 1.02.
    // After fees: Polymarket 0.5175 + 0.527493 = 1.044993; Limitless 2 x (0.51 + 0.03 x 0.51 x 0.49) = 1.034994.
    const m = byName(
      build(view({ quotes: [quote('polymarket', 0.5, 0.51), quote('limitless', 0.51, 0.51)] }), NOW, opts, ctx),
    );
    expect(m.get('Limitless')!.is_best_odds).toBe(true);
    expect(m.get('Polymarket')!.is_best_odds).toBe(false);
    // 1 / 0.517497 = 1.9324 -> x1.93
    expect(m.get('Limitless')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.93', payout_down: 'x1.93' });
  });

  it("shows each venue's own strike and spot difference, and names the first venue's strike in the question", () => {
    const quotes = [
      quote('polymarket', 0.55, 0.47, { strike: 97_200 }),
      quote('kalshi', 0.52, 0.49, { strike: 97_300.5 }),
    ];
    const p = build(view({ quotes }), NOW, REAL);
    const m = byName(p);
    // 97,262.62 - 97,200.00 = +62.62; 97,262.62 - 97,300.50 = -37.88
    expect(m.get('Polymarket')!.live_metrics).toMatchObject({ target_price: '$97,200.00', spot_difference: '+$62.62' });
    expect(m.get('Kalshi')!.live_metrics).toMatchObject({ target_price: '$97,300.50', spot_difference: '-$37.88' });
    expect(p.providers_pool[0]!.operator_name).toBe('Polymarket');
    expect(p.active_micro_question).toBe('Will BTC be at or above $97,200.00 at 14:10 UTC?');
  });

  it("shows a venue that publishes no strike with none: never the window's strike under its name", () => {
    const p = build(view({ quotes: [quote('kalshi', 0.52, 0.49)] }), NOW, REAL);
    expect(p.providers_pool[0]!.live_metrics).toMatchObject({ target_price: null, spot_difference: null });
    // The question still names the window's strike: it is the market's, not the venue's.
    expect(p.active_micro_question).toContain('$97,250.12');
  });

  it("withholds a venue whose own time of the quote is past its bound (a frozen book), however fresh the feed's confirmation", () => {
    const frozen = quote('polymarket', 0.55, 0.47, {
      venueTs: new Date(NOW - VENUE_QUOTE_MAX_AGE_MS.polymarket! - 1).toISOString(),
    });
    const p = build(view({ quotes: [frozen, quote('kalshi', 0.52, 0.49)] }), NOW, REAL);
    expect(p.providers_pool.map((e) => e.operator_name)).toEqual(['Kalshi']);
    expect(p.unavailable_venues.map((v) => v.operator_name)).toContain('Polymarket');
    expect(p.unavailable_venues.map((v) => v.operator_name)).not.toContain('Kalshi');
  });

  it('with real sources leaves out a venue with no quote, a stale one, one for another window, and null asks', () => {
    const cases: Array<[string, VenueQuoteMessage[]]> = [
      ['absent', []],
      // 15,001 ms old: past the wire contract's 15 s
      ['stale', [quote('kalshi', 0.52, 0.49, { ts: new Date(NOW - 15_001).toISOString() })]],
      [
        'previous window',
        [
          quote('kalshi', 0.52, 0.49, {
            windowStart: '2026-11-22T14:00:00.000Z',
            expiresAt: '2026-11-22T14:05:00.000Z',
          }),
        ],
      ],
      ['null asks', [quote('kalshi', null, null)]],
    ];
    for (const [why, kalshi] of cases) {
      const p = build(view({ quotes: [quote('polymarket', 0.55, 0.47), ...kalshi] }), NOW, REAL);
      expect(
        p.providers_pool.map((e) => e.operator_name),
        why,
      ).toEqual(['Polymarket']);
      expect(p.market_status).toBe('open');
    }
    // Exactly 15 s old still counts.
    const edge = build(
      view({ quotes: [quote('kalshi', 0.52, 0.49, { ts: new Date(NOW - 15_000).toISOString() })] }),
      NOW,
      REAL,
    );
    expect(edge.providers_pool.map((e) => e.operator_name)).toEqual(['Kalshi']);
  });

  it('with real sources and no quote at all shows an open market with no venue, never a modelled price', () => {
    const p = build(view(), NOW, REAL);
    expect(p.market_status).toBe('open');
    expect(p.providers_pool).toEqual([]);
    expect(p.active_micro_question).toContain('$97,250.12');
  });

  it('under the simulator models a venue whose quote is stale, but a null-ask quote takes the venue out', () => {
    const stale = build(view({ quotes: [quote('kalshi', 0.52, 0.49, { ts: new Date(NOW - 20_000).toISOString() })] }));
    expect(byName(stale).get('Kalshi')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.70', payout_down: 'x2.05' });
    const out = build(view({ quotes: [quote('kalshi', null, null)] }));
    expect(out.providers_pool.map((e) => e.operator_name)).toEqual(['Polymarket']);
  });

  it("prices a venue's own strike even when the window missed its start", () => {
    const p = build(
      view({
        strike: undefined,
        strikeStatus: 'missed',
        quotes: [quote('polymarket', 0.55, 0.47, { strike: 97_200 })],
      }),
      NOW,
      REAL,
    );
    expect(p.market_status).toBe('open');
    expect(p.providers_pool.map((e) => [e.operator_name, e.live_metrics.target_price])).toEqual([
      ['Polymarket', '$97,200.00'],
    ]);
    // A venue with no strike of its own is shown without one (ours is never put under its name).
    const q = build(
      view({ strike: undefined, strikeStatus: 'missed', quotes: [quote('polymarket', 0.55, 0.47)] }),
      NOW,
      REAL,
    );
    expect(q.market_status).toBe('open');
    expect(
      q.providers_pool.map((e) => [e.operator_name, e.live_metrics.target_price, e.live_metrics.spot_difference]),
    ).toEqual([['Polymarket', null, null]]);
    expect(q.active_micro_question).toContain('the opening price');
  });

  it('is stale with no tick at all: no prices', () => {
    const p = build(view({ spot: undefined, lastTickMs: undefined, strike: undefined, strikeStatus: 'missed' }));
    expect(p.market_status).toBe('stale');
    expect(p.providers_pool).toEqual([]);
    expect(p.spot_price).toBeNull();
    // No tick: the data last changed when the window opened.
    expect(p.timestamp).toBe('2026-11-22T14:05:00.000Z');
  });

  it('is stale when the last tick is older than staleAfterMs, even with a strike', () => {
    // 30,001 ms old with staleAfterMs 30,000
    const p = build(view({ lastTickMs: NOW - 30_001 }));
    expect(p.market_status).toBe('stale');
    expect(p.providers_pool).toEqual([]);
    // A stale spot would read as the current price: none is shown, and the payload says stale.
    expect(p.spot_price).toBeNull();
    expect(p.spot_path).toEqual([]);
    expect(p.stale).toBe(true);
    expect(build(view({ lastTickMs: NOW - 30_000 })).stale).toBeUndefined();
    // Exactly 30,000 ms old is not yet older than the limit.
    expect(build(view({ lastTickMs: NOW - 30_000 })).market_status).toBe('open');
  });

  it('reports no_strike when no tick caught the window start: no prices, no links', () => {
    const p = build(view({ strike: undefined, strikeStatus: 'missed' }));
    expect(p.market_status).toBe('no_strike');
    expect(p.providers_pool).toEqual([]);
    expect(p.active_micro_question).toBe('Will BTC be at or above the opening price at 14:10 UTC?');
    expect(JSON.stringify(p)).not.toContain('/v1/click');
    expect(p.spot_price).toBe('$97,262.62');
  });

  it('awaits the strike when the window has none yet: no prices', () => {
    const p = build(view({ strike: undefined, strikeStatus: 'awaiting' }));
    expect(p.market_status).toBe('awaiting_strike');
    expect(p.providers_pool).toEqual([]);
    expect(p.active_micro_question).toContain('BTC');
    expect(p.active_micro_question).toContain('14:10 UTC');
    expect(p.spot_price).toBe('$97,262.62');
  });

  it('names other assets', () => {
    const p = build(view({ asset: 'ETH', strike: 3_401.5, spot: 3_399.25 }));
    expect(p.underlying_asset).toBe('ETH');
    expect(p.active_micro_question).toContain('ETH');
    expect(p.active_micro_question).toContain('$3,401.50');
    // 3,399.25 - 3,401.50 = -2.25
    expect(p.providers_pool[0]!.live_metrics.spot_difference).toBe('-$2.25');
  });

  it('is pure: the same inputs give the same payload', () => {
    expect(build(view())).toEqual(build(view()));
  });
});

describe('buildLiveMarketWidget: what the payload says it shows (invariants 9 and 10)', () => {
  it('flags every venue showing the best multipliers, however the asks differ below the cents shown', () => {
    // After their fees, up 0.5385 and 0.5387 both show x1.86, down 0.4879 and 0.4882 both x2.05 (Polymarket
    // is cheaper below the cents shown): the same figures, so both flagged.
    const v = view({ quotes: [quote('polymarket', 0.521, 0.4705), quote('kalshi', 0.5212, 0.4707)] });
    const p = build(v, NOW, REAL);
    const shown = p.providers_pool.map((e) => [
      e.operator_id,
      e.live_metrics.multipliers.payout_up,
      e.live_metrics.multipliers.payout_down,
      e.is_best_odds,
    ]);
    expect(new Set(shown.map((r) => `${r[1]}/${r[2]}`)).size).toBe(1);
    expect(shown.every((r) => r[3] === true)).toBe(true);
    // Each venue's quote keeps its own time.
    expect(p.providers_pool.map((e) => e.updated_at)).toEqual(v.quotes.map((q) => q.venueTs));
  });

  it('says why nothing is shown for a horizon: no venue lists it, none lawful here, none quoting, or a stale feed', () => {
    expect(build(view({ horizon: 15, window: W15 }), NOW, { ...REAL, venues: [POLY] }).unavailable_reason).toBe(
      'no_quote',
    );
    // Only draftkings lists 15 minutes here, the 5-minute window has nobody.
    expect(build(view(), NOW, { ...REAL, venues: [DK15] }).unavailable_reason).toBe('no_venue_for_horizon');
    // Listed by a venue the viewer's jurisdiction may not see.
    expect(build(view(), NOW, { ...REAL, venues: [GHOST] }).unavailable_reason).toBe('not_lawful_here');
    const quiet = build(view(), NOW, REAL);
    expect([
      quiet.providers_pool,
      quiet.unavailable_reason,
      quiet.unavailable_venues.map((v) => v.operator_id),
    ]).toEqual([[], 'no_quote', ['polymarket', 'kalshi']]);
    expect(build(view({ lastTickMs: NOW - 60_000 }), NOW, REAL).unavailable_reason).toBe('stale');
    // With a venue shown there is nothing to explain.
    expect(build(view({ quotes: [quote('polymarket', 0.52, 0.5)] }), NOW, REAL).unavailable_reason).toBeNull();
  });
});
