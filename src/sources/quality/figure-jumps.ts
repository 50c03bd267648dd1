/**
 * Volume and open-interest jumps (docs/sources.md, invariant 7). A market's 24-hour volume is a
 * rolling sum: between two refreshes it loses only what traded in the same minutes a day before and
 * gains what trades now, and open interest moves with trades too. A figure that falls below a
 * quarter of its last accepted value, or rises above four times it, by at least $10,000, in one
 * refresh, is far more often a glitch (a unit change, a counter reset, another market's figure)
 * than trading: it is held at its last accepted value and reported (class `held`), and accepted
 * once it has persisted {@link FIGURE_HOLD_MS}. Pure, apart from the hold starts it is given.
 */
import type { VenueMarket } from '../../model/index.js';
import type { Dropped } from './dropped.js';

/** A move beyond this factor either way, between two refreshes, is held. */
export const MAX_FIGURE_FACTOR = 4;
/** Moves smaller than this (USD) are never held: a thin market's figures swing by whole multiples. */
export const MIN_FIGURE_MOVE_USD = 10_000;
/** A held figure still there after an hour is real: a day's rolling sum has had time to move that much. */
export const FIGURE_HOLD_MS = 3_600_000;

const FIGURES = [
  ['volume24hUsd', '24 h volume'],
  ['openInterestUsd', 'open interest'],
] as const;

const idOf = (m: VenueMarket) => `${m.venue}:${m.venue === 'kalshi' ? m.id : `${m.eventId}/${m.id}`}`;

/**
 * `markets` with each figure that jumped against `previous` (the last accepted fetch) held at its
 * previous value, until the jump has lasted {@link FIGURE_HOLD_MS}; `since` maps each held figure to
 * when its jump was first seen, and is updated (an id no longer held is forgotten).
 */
export function holdFigureJumps(
  markets: readonly VenueMarket[],
  previous: readonly VenueMarket[],
  now: Date,
  since: Map<string, number>,
): { markets: VenueMarket[]; dropped: Dropped[] } {
  const before = new Map(previous.map((m) => [idOf(m), m]));
  const dropped: Dropped[] = [];
  const held = new Set<string>();
  const out = markets.map((m) => {
    const was = before.get(idOf(m));
    if (!was) return m;
    let kept = m;
    for (const [field, name] of FIGURES) {
      const [a, b] = [was[field], m[field]];
      if (
        a === null ||
        b === null ||
        Math.abs(b - a) < MIN_FIGURE_MOVE_USD ||
        (b <= a * MAX_FIGURE_FACTOR && b * MAX_FIGURE_FACTOR >= a)
      )
        continue;
      const id = `${idOf(m)}/${field}`;
      const start = since.get(id) ?? now.getTime();
      if (now.getTime() - start >= FIGURE_HOLD_MS) continue;
      held.add(id);
      since.set(id, start);
      dropped.push({
        id,
        reason: `${name} ${a} → ${b} in one refresh (beyond x${MAX_FIGURE_FACTOR}): held at ${a}`,
        class: 'held',
        since: new Date(start).toISOString(),
      });
      kept = { ...kept, [field]: a };
    }
    return kept;
  });
  for (const id of since.keys()) if (!held.has(id)) since.delete(id);
  return { markets: out, dropped };
}
