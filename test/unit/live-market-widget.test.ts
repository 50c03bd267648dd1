import { describe, expect, it } from 'vitest';
import type { LiveView } from '../../src/live/engine.js';
import { LIVE_VENUES, type LiveVenue, type VenueQuote } from '../../src/live/venues.js';
import { verifyClick } from '../../src/tracking/click-links.js';
import { buildLiveMarketWidget, type LiveMarketOptions } from '../../src/widgets/live-market-widget.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
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

const OPTS: LiveMarketOptions = { refreshIntervalSeconds: 1, staleAfterMs: 30_000, venues: [POLY, KALSHI, GHOST, DK15] };

function view(over: Partial<LiveView> = {}): LiveView {
  return { asset: 'BTC', horizon: 5, window: W5, strike: 97_250.12, spot: 97_262.62, lastTickMs: TICK, variance: VAR_55, ...over };
}

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

  it('prices each venue from the model and prints 1/price multipliers', () => {
    // σ²T = 9.59221e-9 * 120 = 1.1510654e-6, σ√T = 0.0010728772
    // ln(97262.62 / 97250.12) = 1.2852629e-4
    // d2 = (1.2852629e-4 - 5.755327e-7) / 0.0010728772 = 0.1192595 -> fair up N(d2) = 0.5474651
    // Polymarket: up 0.5474651 + 0.01 + 0.002 = 0.5594651 -> 0.560; down 0.4525349 + 0.008 = 0.4605349 -> 0.461
    //   1/0.56 = 1.7857 -> x1.79; 1/0.461 = 2.1692 -> x2.17; overround 1.021
    // Kalshi: up 0.5474651 + 0.015 - 0.002 = 0.5604651 -> 0.57; down 0.4525349 + 0.017 = 0.4695349 -> 0.47
    //   1/0.57 = 1.7544 -> x1.75; 1/0.47 = 2.1277 -> x2.13; overround 1.04
    const m = byName(p);
    expect(m.get('Polymarket')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.79', payout_down: 'x2.17' });
    expect(m.get('Kalshi')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.75', payout_down: 'x2.13' });
  });

  it('flags the lowest overround as best odds', () => {
    const m = byName(p);
    // 1.021 < 1.04
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

  it('carries the operator coupon, or an empty string', () => {
    expect(p.providers_pool.every((e) => e.incentives.coupon_value === '')).toBe(true);
    const base = makeContext();
    const ctx = makeContext({
      operatorById: (id) => {
        const op = base.operatorById(id);
        return op && id === 'kalshi' ? { ...op, couponValue: '$10 bonus' } : op;
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
    expect(build(view({ horizon: 15, window: W15 }), NOW, opts).providers_pool.map((e) => e.operator_name).sort()).toEqual(['Kalshi', 'Polymarket']);
  });

  it('rounds seconds_left up', () => {
    // 14:10:00.000 - 14:08:00.001 = 119.999 s -> 120
    expect(build(view(), NOW + 1).seconds_left).toBe(120);
    // 1 ms before expiry -> 1
    expect(build(view({ lastTickMs: W5.endMs - 2 }), W5.endMs - 1).seconds_left).toBe(1);
  });

  it('uses a source quote instead of the model for that operator only', () => {
    const quotes = new Map<string, VenueQuote>([
      ['polymarket', { operatorId: 'polymarket', up: 0.6, down: 0.45 }],
      // A quote for an operator the catalog does not know stays out.
      ['ghostbook', { operatorId: 'ghostbook', up: 0.01, down: 0.01 }],
    ]);
    const p = build(view(), NOW, { ...OPTS, quotes });
    const m = byName(p);
    expect([...m.keys()].sort()).toEqual(['Kalshi', 'Polymarket']);
    // 1/0.6 = 1.6667 -> x1.67; 1/0.45 = 2.2222 -> x2.22
    expect(m.get('Polymarket')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.67', payout_down: 'x2.22' });
    // Kalshi stays on the model (x1.75 / x2.13, overround 1.04) and now leads: 1.04 < 0.6 + 0.45 = 1.05
    expect(m.get('Kalshi')!.live_metrics.multipliers).toEqual({ payout_up: 'x1.75', payout_down: 'x2.13' });
    expect(m.get('Kalshi')!.is_best_odds).toBe(true);
    expect(m.get('Polymarket')!.is_best_odds).toBe(false);
  });

  it('ranks by overround before payout: a cheaper up side does not win with a higher overround', () => {
    // Polymarket 0.50 + 0.56 = 1.06 (cheapest up) vs Kalshi on the model 0.57 + 0.47 = 1.04
    const quotes = new Map<string, VenueQuote>([['polymarket', { operatorId: 'polymarket', up: 0.5, down: 0.56 }]]);
    const m = byName(build(view(), NOW, { ...OPTS, quotes }));
    expect(m.get('Kalshi')!.is_best_odds).toBe(true);
    expect(m.get('Polymarket')!.is_best_odds).toBe(false);
    // 1/0.5 = 2 -> x2.00; 1/0.56 = 1.7857 -> x1.79
    expect(m.get('Polymarket')!.live_metrics.multipliers).toEqual({ payout_up: 'x2.00', payout_down: 'x1.79' });
  });

  it('breaks an overround tie by the higher up payout, and flags a full tie on both', () => {
    // Polymarket 0.55 + 0.47 = 1.02, Kalshi 0.52 + 0.50 = 1.02: Kalshi's up pays more (1/0.52 > 1/0.55).
    const tie = new Map<string, VenueQuote>([
      ['polymarket', { operatorId: 'polymarket', up: 0.55, down: 0.47 }],
      ['kalshi', { operatorId: 'kalshi', up: 0.52, down: 0.5 }],
    ]);
    const m = byName(build(view(), NOW, { ...OPTS, quotes: tie }));
    expect(m.get('Kalshi')!.is_best_odds).toBe(true);
    expect(m.get('Polymarket')!.is_best_odds).toBe(false);

    const full = new Map<string, VenueQuote>([
      ['polymarket', { operatorId: 'polymarket', up: 0.52, down: 0.5 }],
      ['kalshi', { operatorId: 'kalshi', up: 0.52, down: 0.5 }],
    ]);
    const f = build(view(), NOW, { ...OPTS, quotes: full });
    expect(f.providers_pool.map((e) => e.is_best_odds)).toEqual([true, true]);
  });

  it('is stale with no tick at all: no prices', () => {
    const p = build(view({ spot: undefined, lastTickMs: undefined, strike: undefined }));
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
    expect(p.stale).toBe(true);
    expect(build(view({ lastTickMs: NOW - 30_000 })).stale).toBeUndefined();
    // Exactly 30,000 ms old is not yet older than the limit.
    expect(build(view({ lastTickMs: NOW - 30_000 })).market_status).toBe('open');
  });

  it('awaits the strike when the window has none yet: no prices', () => {
    const p = build(view({ strike: undefined }));
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
