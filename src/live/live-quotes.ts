/** Which of the venues' published quotes count for a window at a moment (wire contract: market.ts). */
import type { VenueQuoteMessage } from './market.js';
import type { ContractWindow } from './window.js';

/** A quote older than this is absent: the publisher re-sends every held quote at least every 5 s. */
export const QUOTE_MAX_AGE_MS = 15_000;
/** A quote stamped further ahead of our clock than this is not believed. */
const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * The quotes that speak for `window` at `nowMs`, by operator: for this very window (start and
 * expiry), no older than QUOTE_MAX_AGE_MS and not from the future. A quote with null asks is kept:
 * it says the venue is out for now, which is not the same as saying nothing.
 */
export function quotesForWindow(quotes: Iterable<VenueQuoteMessage>, window: ContractWindow, nowMs: number): Map<string, VenueQuoteMessage> {
  const out = new Map<string, VenueQuoteMessage>();
  for (const q of quotes) {
    if (q.horizonMinutes !== window.horizonMinutes) continue;
    if (Date.parse(q.windowStart) !== window.startMs || Date.parse(q.expiresAt) !== window.endMs) continue;
    const ageMs = nowMs - Date.parse(q.ts);
    if (ageMs > QUOTE_MAX_AGE_MS || ageMs < -MAX_CLOCK_SKEW_MS) continue;
    out.set(q.operatorId, q);
  }
  return out;
}
