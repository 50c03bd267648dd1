/**
 * What the gate remembers between refreshes, through the snapshot meta's dropped list: a line lost
 * stays listed until its event closes or its game starts (or it comes back), and a held jump or a
 * refused identity change keeps the time it was first seen. Pure.
 */
import type { Dropped } from './dropped.js';

/** Items of `present` (id → until) in the last good data that are neither in `after` nor expired, plus carried ones still missing. */
export function lostItems(
  present: ReadonlyMap<string, string>,
  after: ReadonlySet<string>,
  carried: readonly Dropped[],
  now: Date,
): Dropped[] {
  const t = now.getTime();
  const out = new Map<string, Dropped>();
  for (const d of carried) {
    if (d.class === 'lost' && d.until && Date.parse(d.until) > t && !after.has(d.id)) out.set(d.id, d);
  }
  for (const [id, until] of present) {
    if (Date.parse(until) > t && !after.has(id) && !out.has(id))
      out.set(id, { id, reason: 'quoted in the last good snapshot, absent now', class: 'lost', until });
  }
  return [...out.values()];
}

/** When the hold of `id` (a jump, or an identity change) was first seen (from the carried list), or `now` for a new one. */
export function heldSince(carried: readonly Dropped[], id: string, now: Date, cls: 'held' | 'identity' = 'held'): Date {
  const d = carried.find((c) => c.class === cls && c.id === id && c.since);
  return d ? new Date(d.since!) : now;
}
