/** Sanity of venue markets before they are priced: a crossed book (bid above ask) is a broken feed. Pure. */
import type { VenueMarket } from '../../catalog/events/venue-market.js';

/** One violation per open market whose YES bid is above its YES ask. */
export function crossedBooks(markets: readonly VenueMarket[]): string[] {
  return markets
    .filter((m) => m.open && m.yesBid !== undefined && m.yesAsk !== undefined && m.yesBid > m.yesAsk)
    .map((m) => `${m.venue}:${m.id} crossed book (bid ${m.yesBid} above ask ${m.yesAsk})`);
}
