/**
 * The runtime check of a reviewed mapping: on every refresh, the venue market a catalog reference
 * names must still be the market a person reviewed. A Polymarket slug re-listed under another
 * conditionId, or a question that turned around ("Will X leave?" became "Will X stay?", "above"
 * became "below", Democrat became Republican: the matcher's contrasts) or changed its threshold,
 * is dropped and flagged, never priced as the reviewed outcome. Pure.
 */
import { contrastsBetween } from '../../domain/matching/contrasts.js';
import { hasNegation, numericTokens } from '../../domain/matching/text.js';
import type { MarketRef } from './schema.js';
import type { VenueMarket } from '../../model/index.js';

/** Why `m` is not the market `r` was reviewed against, or undefined when it still is. */
export function matchGuard(r: MarketRef, m: VenueMarket): string | undefined {
  if (r.operator === 'polymarket' && r.conditionId && m.conditionId && r.conditionId !== m.conditionId.toLowerCase()) {
    return `match guard: conditionId ${m.conditionId} is not the reviewed ${r.conditionId} (re-listed market)`;
  }
  if (r.operator === 'polymarket' && r.conditionId && !m.conditionId)
    return 'match guard: the market no longer states its conditionId';
  // Kalshi's `title` is deprecated: without the venue's own question there is nothing to compare.
  if (!r.title || !m.question) return undefined;
  if (hasNegation(r.title) !== hasNegation(m.question))
    return `match guard: question inverted since review ("${m.question.slice(0, 120)}")`;
  const turned = contrastsBetween(r.title, m.question);
  if (turned.length > 0) return `match guard: question changed since review (${turned.join('; ')})`;
  const reviewed = numericTokens(r.title).sort().join(',');
  const now = numericTokens(m.question).sort().join(',');
  if (reviewed !== now)
    return `match guard: question numbers changed since review (${reviewed || 'none'} → ${now || 'none'})`;
  return undefined;
}
