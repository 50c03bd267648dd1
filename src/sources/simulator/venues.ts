/**
 * How each prediction venue quotes: price tick, typical half-spread, share of traded volume and the
 * shape of its contract-page URLs (the forms the real venues use).
 */
import { stripAccents } from '../../domain/text.js';

export interface VenueProfile {
  /** Price increment of the venue's order book, in dollars. */
  tick: number;
  /** Half the bid-ask spread, as a range the simulator draws from per event. */
  halfSpread: readonly [number, number];
  /** Relative share of an event's traded volume this venue captures. */
  volumeShare: number;
}

const PROFILES: Record<string, VenueProfile> = {
  kalshi: { tick: 0.01, halfSpread: [0.004, 0.012], volumeShare: 1 },
  polymarket: { tick: 0.001, halfSpread: [0.002, 0.008], volumeShare: 1.15 },
  forecastex: { tick: 0.01, halfSpread: [0.006, 0.016], volumeShare: 0.1 },
  limitless: { tick: 0.001, halfSpread: [0.004, 0.015], volumeShare: 0.05 },
};

/** Regulated exchanges tick in cents, crypto venues finer; unknown venues get a cautious default. */
const DEFAULT_PROFILE: VenueProfile = { tick: 0.01, halfSpread: [0.005, 0.015], volumeShare: 0.05 };

/** The quoting profile of a venue. */
export function venueProfile(operatorId: string): VenueProfile {
  return PROFILES[operatorId] ?? DEFAULT_PROFILE;
}

/** What a contract-page URL is built from. */
export interface MarketRef {
  slug: string;
  /** The outcome's own slug; absent for the YES/NO sides of a binary market (one page). */
  outcomeSlug?: string;
  /** Kalshi series ticker, its web-page segment and the event ticker, when the event is on Kalshi. */
  kalshi?: { series: string; page: string; eventTicker: string };
}

/** The venue's contract page for an outcome. */
export function marketUrl(operatorId: string, ref: MarketRef): string {
  const market = ref.outcomeSlug ? `${ref.slug}-${ref.outcomeSlug}` : ref.slug;
  switch (operatorId) {
    case 'kalshi':
      // Kalshi lists every outcome of an event on one page: /markets/{series}/{page}/{event ticker}.
      return ref.kalshi
        ? `https://kalshi.com/markets/${ref.kalshi.series.toLowerCase()}/${ref.kalshi.page}/${ref.kalshi.eventTicker.toLowerCase()}`
        : `https://kalshi.com/markets/${ref.slug}`;
    case 'polymarket':
      // Event page, plus the market slug for one outcome of a multi-outcome event.
      return ref.outcomeSlug
        ? `https://polymarket.com/event/${ref.slug}/${market}`
        : `https://polymarket.com/event/${ref.slug}`;
    case 'forecastex':
      return `https://forecastex.com/markets/${market}`;
    case 'limitless':
      return `https://limitless.exchange/markets/${market}`;
    default:
      return `https://${operatorId}.com/markets/${market}`;
  }
}

/** Lowercase hyphenated form of an outcome name, for URLs. */
export function slugify(name: string): string {
  return stripAccents(name)
    .toLowerCase()
    .replace(/\+/g, ' plus ')
    .replace(/%/g, ' pct ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
