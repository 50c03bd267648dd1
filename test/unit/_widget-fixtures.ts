/** Hand-made operator catalog and widget context shared by the widget unit tests (not a test file). */
import { complianceState } from '../../src/catalog/compliance/state.js';
import type { Operator } from '../../src/catalog/operator-schema.js';
import { clickUrl } from '../../src/tracking/click-links.js';
import { impressionUrl } from '../../src/tracking/impression-links.js';
import type { WidgetContext } from '../../src/widgets/context.js';

export const CLICK_BASE = 'https://pw.example';
export const CLICK_SECRET = 'test-click-secret-0123456789-abcdefghij';

const copy = { en: { promoText: 'Get started', ctaLabel: 'Join', terms: '21+. New customers only. T&Cs apply.' } };
/** A US offer with `promoCode`, as the catalog writes one. */
const usOffer = (promoCode?: string) => [
  {
    jurisdictions: ['US'],
    promoCode,
    copy,
    termsUrl: 'https://example.com/terms',
    source: 'test fixture offer',
    asOf: '2026-11-22',
  },
];

export const OPERATORS: Operator[] = [
  {
    id: 'kalshi',
    name: 'Kalshi',
    kind: 'exchange',
    rating: 4.6,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['PRO_LIQUIDITY'],
    affiliateUrl: 'https://kalshi.com/sign-up',
    webDomains: ['kalshi.com'],
    offers: usOffer('PWKALSHI'),
  },
  {
    id: 'polymarket',
    name: 'Polymarket',
    kind: 'crypto',
    rating: 4.4,
    appStores: ['iOS'],
    capabilities: [],
    affiliateUrl: 'https://polymarket.com/',
    webDomains: ['polymarket.com'],
    offers: usOffer(),
  },
  {
    id: 'draftkings',
    name: 'DraftKings',
    kind: 'sportsbook',
    rating: 4.5,
    appStores: ['iOS', 'Google Play'],
    capabilities: ['SAME_GAME_PARLAY'],
    affiliateUrl: 'https://sportsbook.draftkings.com/',
    webDomains: ['draftkings.com'],
    offers: usOffer('DK200'),
  },
  {
    id: 'fanduel',
    name: 'FanDuel',
    kind: 'sportsbook',
    rating: 4.3,
    appStores: ['iOS'],
    capabilities: ['PRO_LIQUIDITY', 'LIVE'],
    affiliateUrl: 'https://sportsbook.fanduel.com/',
    webDomains: ['fanduel.com'],
    offers: usOffer(),
  },
];

/**
 * A context for a visitor in New Jersey over {@link OPERATORS}, every one of them shown (compliance
 * is tested with the real catalog); `ghostbook` and anything else is unknown.
 */
export function makeContext(overrides: Partial<WidgetContext> = {}): WidgetContext {
  const byId = new Map(OPERATORS.map((o) => [o.id, o]));
  return {
    jurisdiction: 'US-NJ',
    country: 'US',
    region: 'US-NJ',
    disclosureFor: () => complianceState().rules.disclosureFor('US-NJ'),
    operatorOn: (id) => byId.get(id),
    offerFor: (id) => byId.get(id)?.offers.find((o) => o.jurisdictions.includes('US')),
    clickUrl: (target) => clickUrl(CLICK_BASE, CLICK_SECRET, target),
    impressionUrl: (widget, operatorIds) =>
      impressionUrl(CLICK_BASE, CLICK_SECRET, { widget, operatorIds, expiresAt: 1_900_000_000 }),
    linkExpiresAt: 1_900_000_000,
    impressionId: 'imp-0001',
    advertiserId: 'acme-media',
    ...overrides,
  };
}
