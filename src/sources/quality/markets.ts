/** Sanity of venue markets before they are priced: a crossed book (bid above ask) is a broken feed. Pure. */
import type { VenueMarket } from '../../model/index.js';
import type { Dropped } from './dropped.js';

/** `markets` without the open ones whose YES bid is above their YES ask; those that `reported` says matter are reported (class `inconsistent`). */
export function withoutCrossedBooks(markets: readonly VenueMarket[], reported: (m: VenueMarket) => boolean): { markets: VenueMarket[]; dropped: Dropped[] } {
  const crossed = (m: VenueMarket) => m.open && m.yesBid !== undefined && m.yesAsk !== undefined && m.yesBid > m.yesAsk;
  return {
    markets: markets.filter((m) => !crossed(m)),
    dropped: markets.filter((m) => crossed(m) && reported(m)).map((m) => ({
      id: `${m.venue}:${m.venue === 'kalshi' ? m.id : `${m.eventId}/${m.id}`}`,
      reason: `crossed book (bid ${m.yesBid} above ask ${m.yesAsk})`,
      class: 'inconsistent' as const,
    })),
  };
}
