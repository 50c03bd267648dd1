/**
 * Structure of venue markets before they are priced (docs/sources.md): a crossed book (bid above
 * ask), a Kalshi NO side that does not mirror its YES side, and a Polymarket market whose outcome
 * labels moved against their token ids since the last accepted fetch are broken feeds, dropped and
 * reported (class `inconsistent`). Pure.
 */
import type { VenueMarket } from '../../model/index.js';
import type { Dropped } from './dropped.js';

/**
 * How far a Kalshi ask may sit from the mirror of the other side's bid. Kalshi's four prices are
 * one order book read at one instant (a NO ask is a YES bid seen from the other side, 1 - bid), so
 * they agree to the cent; the recorded markets agree exactly.
 */
export const MIRROR_TOLERANCE = 0.01;

const idOf = (m: VenueMarket) => `${m.venue}:${m.venue === 'kalshi' ? m.id : `${m.eventId}/${m.id}`}`;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Why an open market's book is broken, or undefined. */
function brokenBook(m: VenueMarket): string | undefined {
  if (!m.open) return undefined;
  if (m.yesBid !== undefined && m.yesAsk !== undefined && m.yesBid > m.yesAsk)
    return `crossed book (bid ${m.yesBid} above ask ${m.yesAsk})`;
  if (m.venue !== 'kalshi') return undefined;
  const sides: Array<[string, number | undefined, string, number | undefined]> = [
    ['NO ask', m.noAsk, 'YES bid', m.yesBid],
    ['YES ask', m.yesAsk, 'NO bid', m.noBid],
  ];
  for (const [askName, ask, bidName, bid] of sides) {
    if (ask !== undefined && bid !== undefined && Math.abs(ask - (1 - bid)) > MIRROR_TOLERANCE + 1e-9) {
      return `${askName} ${ask} does not mirror the ${bidName} ${bid} (1 - ${bid} = ${round6(1 - bid)}): one side is stale`;
    }
  }
  return undefined;
}

/** `markets` without the open ones whose book is broken; those that `reported` says matter are reported (class `inconsistent`). */
export function withoutBrokenBooks(
  markets: readonly VenueMarket[],
  reported: (m: VenueMarket) => boolean,
): { markets: VenueMarket[]; dropped: Dropped[] } {
  const out: VenueMarket[] = [];
  const dropped: Dropped[] = [];
  for (const m of markets) {
    const why = brokenBook(m);
    if (!why) out.push(m);
    else if (reported(m)) dropped.push({ id: idOf(m), reason: why, class: 'inconsistent' });
  }
  return { markets: out, dropped };
}

/** Each outcome label of a market with its token id (YES/NO or the named sides), when it has tokens. */
function labelTokens(m: VenueMarket): Map<string, string> | undefined {
  if (!m.tokenIds) return undefined;
  const [yes, no] = m.sides ?? ['Yes', 'No'];
  return new Map([
    [yes.toLowerCase(), m.tokenIds.yes],
    [no.toLowerCase(), m.tokenIds.no],
  ]);
}

/**
 * `markets` without those whose outcome labels now name other tokens than in `previous` (the last
 * accepted fetch), the tokens being the same: the labels were reordered while the prices and tokens
 * were not, so every price would be read for the wrong outcome. A re-listing (new tokens) is the
 * match guard's, not this. Reported (class `inconsistent`).
 */
export function withoutRelabelled(
  markets: readonly VenueMarket[],
  previous: readonly VenueMarket[],
): { markets: VenueMarket[]; dropped: Dropped[] } {
  const before = new Map(previous.map((m) => [idOf(m), labelTokens(m)]));
  const out: VenueMarket[] = [];
  const dropped: Dropped[] = [];
  for (const m of markets) {
    const now = labelTokens(m);
    const was = before.get(idOf(m));
    const sameTokens = now && was && [...now.values()].sort().join() === [...was.values()].sort().join();
    const moved = sameTokens
      ? [...now.entries()].filter(([label, token]) => was.get(label) !== token).map(([label]) => label)
      : [];
    if (moved.length === 0) out.push(m);
    else
      dropped.push({
        id: idOf(m),
        reason: `outcome labels ${moved.map((l) => `"${l}"`).join(', ')} now name the other token (labels reordered, tokens and prices not)`,
        class: 'inconsistent',
      });
  }
  return { markets: out, dropped };
}
