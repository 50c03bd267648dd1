/**
 * The same id twice in one upstream list. Identical copies are one item sent twice: one is kept.
 * Copies that differ cannot both be true and we cannot tell which is: both are dropped. Either
 * way the duplicate is reported (class `duplicate`). Pure; runs on the raw items, before a
 * normalizer folds them into a map where the last copy would silently win.
 */
import type { Dropped } from './dropped.js';

/** `items` with each id once, and what was dropped or merged (`idOf` as in parseEach: an item without an id gets its index). */
export function dedupe<T>(
  items: readonly T[],
  idOf: (item: T, index: number) => string,
): { kept: T[]; dropped: Dropped[] } {
  const groups = new Map<string, T[]>();
  for (const [i, it] of items.entries()) groups.set(idOf(it, i), [...(groups.get(idOf(it, i)) ?? []), it]);
  const conflicting = new Set<string>();
  const dropped: Dropped[] = [];
  for (const [id, copies] of groups) {
    if (copies.length < 2) continue;
    const same = copies.every((c) => JSON.stringify(c) === JSON.stringify(copies[0]));
    if (!same) conflicting.add(id);
    dropped.push({
      id,
      reason: same
        ? `listed ${copies.length} times, identical: kept one`
        : `listed ${copies.length} times with different contents: dropped every copy`,
      class: 'duplicate',
    });
  }
  const seen = new Set<string>();
  const kept = items.filter((it, i) => {
    const id = idOf(it, i);
    if (conflicting.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return { kept, dropped };
}
