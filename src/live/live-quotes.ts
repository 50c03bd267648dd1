/** Which of the venues' published quotes count for a window at a moment (wire contract: src/model/live.ts). */
import type { VenueQuoteMessage } from '../model/index.js';
import type { ContractWindow } from './window.js';

/** A quote the feed has not confirmed for this long is absent: a live feed confirms it every few seconds. */
export const QUOTE_MAX_AGE_MS = 15_000;
/** A quote stamped further ahead of our clock than this is not believed. */
const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * How old the venue's own time of a quote (`venueTs`) may be, per venue, from its update cadence
 * (docs/live-sources.md): past it the venue's book is frozen, and the venue is shown unavailable.
 * - Polymarket pushes every change of an up/down book on the CLOB market channel; these books
 *   change many times a minute while a window is open, so 30 s without one is a frozen book.
 * - Kalshi's quotes are polled (KALSHI_QUOTES_POLL_MS, 2 s by default) and stamped with the
 *   `Date` of the venue's answer: 15 s is several missed polls.
 * A venue not listed gets the feed's own bound.
 */
export const VENUE_QUOTE_MAX_AGE_MS: Readonly<Record<string, number>> = { polymarket: 30_000, kalshi: 15_000 };

/** The bound on a quote's venue time for `operatorId`. */
export const venueQuoteMaxAgeMs = (operatorId: string): number =>
  VENUE_QUOTE_MAX_AGE_MS[operatorId] ?? QUOTE_MAX_AGE_MS;

const fresh = (stampMs: number, nowMs: number, maxAgeMs: number) => {
  const ageMs = nowMs - stampMs;
  return ageMs <= maxAgeMs && ageMs >= -MAX_CLOCK_SKEW_MS;
};

/**
 * The quotes that speak for `window` at `nowMs`, by operator: for this very window (start and
 * expiry), confirmed by the feed within QUOTE_MAX_AGE_MS, with the venue's own time within its
 * bound, and neither from the future. A quote with null asks is kept: it says the venue is out for
 * now, which is not the same as saying nothing.
 */
export function quotesForWindow(
  quotes: Iterable<VenueQuoteMessage>,
  window: ContractWindow,
  nowMs: number,
): Map<string, VenueQuoteMessage> {
  const out = new Map<string, VenueQuoteMessage>();
  for (const q of quotes) {
    if (q.horizonMinutes !== window.horizonMinutes) continue;
    if (Date.parse(q.windowStart) !== window.startMs || Date.parse(q.expiresAt) !== window.endMs) continue;
    if (
      !fresh(Date.parse(q.ts), nowMs, QUOTE_MAX_AGE_MS) ||
      !fresh(Date.parse(q.venueTs), nowMs, venueQuoteMaxAgeMs(q.operatorId))
    )
      continue;
    out.set(q.operatorId, q);
  }
  return out;
}
