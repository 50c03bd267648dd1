/**
 * Compliance on every widget class, per jurisdiction, with the real catalog, compliance rules and
 * promotion policy: each builder is given the jurisdiction's view of the catalog (shownOperators),
 * as the routes do, and must list exactly the operators allowed there, flag best odds among those
 * only, show offers only where they apply and inducements are lawful, and carry the disclosures.
 */
import { describe, expect, it } from 'vitest';
import { complianceState } from '../../src/catalog/compliance/state.js';
import { operatorById } from '../../src/catalog/operators.js';
import { offerFor } from '../../src/catalog/promotion-policy.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import type { LiveView } from '../../src/live/engine.js';
import { LIVE_VENUES } from '../../src/live/venues.js';
import type { BookOdds, LeagueData, MarketEvent, MetricsData } from '../../src/model/index.js';
import { clickUrl } from '../../src/tracking/click-links.js';
import { impressionUrl } from '../../src/tracking/impression-links.js';
import { buildBroadWidget, type BroadWidgetInput } from '../../src/widgets/broad-widget.js';
import type { WidgetContext } from '../../src/widgets/context.js';
import { buildEventWidget } from '../../src/widgets/event-widget.js';
import { buildLiveMarketWidget } from '../../src/widgets/live-market-widget.js';
import {
  BroadWidgetPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import { buildSportsbookWidget } from '../../src/widgets/sportsbook-widget.js';

const ALL = [
  'kalshi',
  'forecastex',
  'polymarket',
  'limitless',
  'draftkings',
  'fanduel',
  'betmgm',
  'caesars',
  'bet365',
  'betfair',
  'fanatics',
];

/**
 * Who may be shown where, written out by hand from the sourced rules (compliance/rules.json): deny by
 * default, US states and Canadian provinces by region, an unknown US region sees nothing.
 */
const ALLOWED: Record<string, string[]> = {
  'US-NJ': ['bet365', 'betmgm', 'caesars', 'draftkings', 'fanatics', 'fanduel', 'forecastex', 'kalshi'],
  'US-TX': ['forecastex', 'kalshi'],
  US: [],
  GB: ['bet365', 'betfair', 'betmgm'],
  DE: [],
  FR: [],
  'CA-ON': ['betmgm', 'fanduel'],
  'CA-BC': [],
  BR: ['bet365', 'betfair'],
  ES: ['bet365'],
  IN: [],
  JP: [],
};
const COUNTRIES = Object.keys(ALLOWED);

/** Promo codes a visitor may see: the US offers in US states, Betfair's GB offer in GB, none elsewhere. */
const PROMO_CODES: Record<string, Record<string, string>> = {
  'US-NJ': {
    kalshi: 'WIRE10',
    draftkings: 'DKWIRE',
    betmgm: 'BETWIRE',
    caesars: 'WIREFULL',
    bet365: 'WIRE365',
    fanatics: 'FANWIRE',
  },
  'US-TX': { kalshi: 'WIRE10' },
  GB: { betfair: 'EXCH100' },
};

const ctx = (country: string): WidgetContext => ({
  ...shownOperators(country),
  clickUrl: (t) => clickUrl('https://pw.example', 'widget-compliance-test-secret-0123456789', t),
  impressionUrl: (widget, operatorIds) =>
    impressionUrl('https://pw.example', 'widget-compliance-test-secret-0123456789', {
      widget,
      operatorIds,
      expiresAt: 1_900_000_000,
    }),
  linkExpiresAt: 1_900_000_000,
  impressionId: 'imp-geo',
});
const nameOf = (id: string) => operatorById(id)!.name;

/** resolved_geo and resolved_region say the jurisdiction; disclosures are there exactly when an operator is shown. */
function expectJurisdiction(
  payload: { resolved_geo: string; resolved_region: string | null; disclosures: unknown },
  code: string,
  shown: number,
) {
  expect(payload.resolved_geo).toBe(code.slice(0, 2));
  expect(payload.resolved_region).toBe(code.length > 2 ? code : null);
  if (shown > 0)
    expect(payload.disclosures, code).toMatchObject({
      min_age: expect.any(Number),
      ad_label: expect.any(String),
      responsible_gambling: { url: expect.any(String) },
    });
  else expect(payload.disclosures, code).toBeNull();
}
const names = (ids: readonly string[]) => ids.map(nameOf).sort();

// ------------------------------------------------------------------ event widget

/**
 * YES prices, far enough apart that no venue fee reorders them: the crypto markets are the
 * cheapest overall, so a flag computed before filtering would land on an operator not shown.
 */
const PRICES: Record<string, number> = {
  polymarket: 0.2,
  limitless: 0.22,
  kalshi: 0.3,
  forecastex: 0.4,
  betfair: 0.5,
  bet365: 0.6,
  betmgm: 0.66,
  draftkings: 0.7,
  fanduel: 0.7,
  caesars: 0.7,
  fanatics: 0.7,
};
const BEST_EVENT: Record<string, string[]> = {
  'US-NJ': ['kalshi'],
  'US-TX': ['kalshi'],
  GB: ['betfair'],
  'CA-ON': ['betmgm'],
  BR: ['betfair'],
  ES: ['bet365'],
};

function event(polymarketVolume = 1_000_000): MarketEvent {
  return {
    slug: 'fed-cut-december',
    question: 'Will the Fed cut in December?',
    category: 'economics',
    closesAt: '2026-12-10T19:00:00.000Z',
    outcomes: [
      {
        name: 'Yes',
        quotes: ALL.map((id) => ({
          operatorId: id,
          yesPrice: PRICES[id]!,
          volume24hUsd: id === 'polymarket' ? polymarketVolume : 10_000,
          marketUrl: `https://${operatorById(id)!.webDomains[0]}/markets/fed`,
        })),
      },
    ],
  };
}

describe.each(COUNTRIES)('event widget for a visitor from %s', (country) => {
  const payload = buildEventWidget(event(), '2026-11-22T14:00:00.000Z', 'cents', ctx(country));

  it('lists exactly the operators allowed there, flags best odds among them, and says the country', () => {
    EventWidgetPayload.parse(payload);
    const pool = payload.outcomes.flatMap((o) => o.comparison_pool);
    expectJurisdiction(payload, country, pool.length);
    expect(pool.map((e) => e.operator_id).sort()).toEqual(ALLOWED[country]);
    expect(pool.filter((e) => e.is_best_odds).map((e) => e.operator_id)).toEqual(BEST_EVENT[country] ?? []);
    // an outcome nobody allowed quotes is left out, not shown empty
    expect(payload.outcomes.length).toBe(ALLOWED[country]!.length > 0 ? 1 : 0);
  });

  it('applies promo codes only from offers for that country', () => {
    const codes = Object.fromEntries(
      payload.outcomes
        .flatMap((o) => o.comparison_pool)
        .flatMap((e) => (e.promo_applied ? [[e.operator_id, e.promo_applied]] : [])),
    );
    expect(codes).toEqual(PROMO_CODES[country] ?? {});
  });

  it('aggregates over the operators shown only: a hidden operator cannot move the figures', () => {
    const other = buildEventWidget(event(1), '2026-11-22T14:00:00.000Z', 'cents', ctx(country));
    const figures = (p: typeof payload) => p.outcomes.map((o) => [o.aggregated_probability_pct, o.market_depth_volume]);
    if (ALLOWED[country]!.includes('polymarket')) expect(figures(other)).not.toEqual(figures(payload));
    else expect(figures(other)).toEqual(figures(payload));
  });
});

// ------------------------------------------------------------------ sportsbook widget

const T = '2026-11-22T12:00:00.000Z';
/** Moneylines: the crypto markets pay best, then Kalshi, then Betfair; each book otherwise alike. */
const AWAY_ML: Record<string, number> = {
  polymarket: 190,
  limitless: 185,
  kalshi: 170,
  forecastex: 160,
  betfair: 165,
  bet365: 150,
  betmgm: 145,
  draftkings: 140,
  fanduel: 140,
  caesars: 140,
  fanatics: 140,
};
const BEST_AWAY_ML: Record<string, string[]> = {
  'US-NJ': ['kalshi'],
  'US-TX': ['kalshi'],
  GB: ['betfair'],
  'CA-ON': ['betmgm'],
  BR: ['betfair'],
  ES: ['bet365'],
};

const LEAGUE: LeagueData = {
  league: 'NBA',
  teams: [
    { code: 'BOS', name: 'Boston Celtics', aliases: ['Celtics'] },
    { code: 'NYK', name: 'New York Knicks', aliases: ['Knicks'] },
  ],
  finished: [],
  upcoming: [
    {
      id: 'nba-2026-11-23-nyk-bos',
      scheduledTime: '2026-11-23T00:30:00.000Z',
      homeCode: 'BOS',
      awayCode: 'NYK',
      books: ALL.map(
        (id): BookOdds => ({ operatorId: id, lastUpdate: T, awayMoneyline: AWAY_ML[id]!, homeMoneyline: -200 }),
      ),
    },
  ],
};

describe.each(COUNTRIES)('sportsbook widget for a visitor from %s', (country) => {
  it('lists exactly the operators allowed there and flags best odds among them', () => {
    const payload = buildSportsbookWidget(LEAGUE, LEAGUE.upcoming[0]!, ctx(country));
    SportsbookWidgetPayload.parse(payload);
    expectJurisdiction(payload, country, payload.odds_matrix.operators.length);
    expect(payload.odds_matrix.operators.map((o) => o.name).sort()).toEqual(names(ALLOWED[country]!));
    const leaders = payload.odds_matrix.operators
      .filter((o) => o.best_odds.includes('away_moneyline'))
      .map((o) => o.name);
    expect(leaders).toEqual((BEST_AWAY_ML[country] ?? []).map(nameOf));
    // every row links to the operator through a signed click link for this jurisdiction
    for (const o of payload.odds_matrix.operators)
      expect(new URL(o.routing.web_url).searchParams.get('c')).toBe(country);
  });
});

// ------------------------------------------------------------------ live-market widget

const W15 = {
  horizonMinutes: 15,
  startMs: Date.parse('2026-11-22T14:00:00.000Z'),
  endMs: Date.parse('2026-11-22T14:15:00.000Z'),
};
const NOW = Date.parse('2026-11-22T14:08:00.000Z');
const VIEW: LiveView = {
  asset: 'BTC',
  horizon: 15,
  window: W15,
  strike: 97_250.12,
  spot: 97_262.62,
  lastTickMs: NOW - 500,
  variance: 0.3025 / 31_536_000,
  strikeStatus: 'set',
  quotes: [],
  path: [[W15.startMs, 97_250.12]],
};
/** Live venues (Polymarket, Kalshi, Limitless) allowed per country. */
const LIVE_ALLOWED = Object.fromEntries(
  COUNTRIES.map((c) => [c, ALLOWED[c]!.filter((id) => LIVE_VENUES.some((v) => v.operatorId === id))]),
);

describe.each(COUNTRIES)('live-market widget for a visitor from %s', (country) => {
  it('lists exactly the venues allowed there, with coupons only from offers for that country', () => {
    const payload = buildLiveMarketWidget(
      VIEW,
      NOW,
      { refreshIntervalSeconds: 1, staleAfterMs: 30_000, venues: LIVE_VENUES, modelMissingVenues: true },
      ctx(country),
    );
    LiveMarketPayload.parse(payload);
    expectJurisdiction(payload, country, payload.providers_pool.length);
    expect(payload.providers_pool.map((p) => p.operator_id).sort()).toEqual(LIVE_ALLOWED[country]);
    if (payload.providers_pool.length > 0) expect(payload.providers_pool.some((p) => p.is_best_odds)).toBe(true);
    const coupons = Object.fromEntries(payload.providers_pool.map((p) => [p.operator_id, p.incentives.coupon_value]));
    for (const [id, coupon] of Object.entries(coupons))
      expect(coupon, id).toBe(country.startsWith('US-') && id === 'kalshi' ? '$10 bonus' : '');
  });
});

// ------------------------------------------------------------------ broad widget

const METRICS: MetricsData = {
  operators: ALL.map((id, i) => ({
    operatorId: id,
    volume24hUsd: 1_000_000 * (i + 1),
    openInterestUsd: 500_000,
    liquidityUsd: 100_000,
    activeEvents: 10,
    volumeByCategoryUsd: { sports: 1_000_000 * (i + 1) },
  })),
};

/** Every country's broad widget is built from the same metrics and settings. */
const BROAD_INPUT: BroadWidgetInput = {
  metrics: METRICS,
  changedAt: '2026-11-22T14:00:00.000Z',
  locale: 'en',
  currency: 'USD',
  rate: 1,
  limit: 50,
  signals: new Map(),
  ctrPrior: { mean: 0, weight: 1000 },
  weights: { volume: 0.5, oiAccel: 0.2, ctr: 0.3 },
};

describe.each(COUNTRIES)('broad widget for a visitor from %s', (country) => {
  const { payload } = buildBroadWidget(BROAD_INPUT, ctx(country));

  it('lists exactly the operators allowed there', () => {
    BroadWidgetPayload.parse(payload);
    expectJurisdiction(payload, country, payload.operators.length);
    expect(payload.operators.map((o) => o.operator_name).sort()).toEqual(names(ALLOWED[country]!));
  });

  it('shows promo codes only from offers for that country, and a neutral call to action otherwise', () => {
    const byName = new Map(payload.operators.map((o) => [o.operator_name, o.incentives]));
    const codes = PROMO_CODES[country] ?? {};
    for (const id of ALLOWED[country]!) {
      const inc = byName.get(nameOf(id))!;
      expect(inc.promo_code, id).toBe(codes[id] ?? '');
      const offer = offerFor(operatorById(id)!, country, complianceState().rules);
      if (offer) {
        expect(inc).toEqual({
          promo_text: offer.copy.en.promoText,
          promo_code: offer.promoCode ?? '',
          cta_label: offer.copy.en.ctaLabel,
          promo_terms: offer.copy.en.terms,
          promo_terms_url: offer.termsUrl,
        });
      } else
        expect(inc).toEqual({
          promo_text: '',
          promo_code: '',
          cta_label: 'Visit site',
          promo_terms: '',
          promo_terms_url: '',
        });
    }
  });
});

describe('inducement bans (CA-ON: AGCO standard 2.05; BR: Portaria SPA/MF 1.231)', () => {
  it.each(['CA-ON', 'BR'])(
    '%s: no promo text, code or coupon on any widget, even for an offer written for it',
    (country) => {
      // An offer that names the jurisdiction is still not shown where inducements are banned.
      const withOffer = (id: string) => {
        const op = operatorById(id)!;
        return { ...op, offers: [{ ...op.offers[0]!, jurisdictions: [country] }] };
      };
      const c = { ...ctx(country), ...shownOperators(country, { lookup: withOffer }) };
      const ev = buildEventWidget(event(), '2026-11-22T14:00:00.000Z', 'cents', c);
      expect(ev.outcomes.flatMap((o) => o.comparison_pool).length).toBeGreaterThan(0);
      expect(ev.outcomes.flatMap((o) => o.comparison_pool).some((e) => e.promo_applied !== undefined)).toBe(false);
      const { payload } = buildBroadWidget(BROAD_INPUT, c);
      expect(payload.operators.length).toBeGreaterThan(0);
      for (const o of payload.operators)
        expect(o.incentives).toEqual({
          promo_text: '',
          promo_code: '',
          cta_label: 'Visit site',
          promo_terms: '',
          promo_terms_url: '',
        });
    },
  );
  it('ES: an offer written for Spain is shown, since the Supreme Court annulled the welcome-bonus ban (STS 527/2024)', () => {
    const withOffer = (id: string) => {
      const op = operatorById(id)!;
      return { ...op, offers: [{ ...op.offers[0]!, jurisdictions: ['ES'] }] };
    };
    const { payload } = buildBroadWidget(BROAD_INPUT, { ...ctx('ES'), ...shownOperators('ES', { lookup: withOffer }) });
    expect(payload.operators.map((o) => o.incentives.promo_code)).toEqual([
      operatorById('bet365')!.offers[0]!.promoCode,
    ]);
  });
});
