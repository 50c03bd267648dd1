/**
 * The API process's first check on a reported impression: which of its operators this process has
 * not yet queued for that visitor, widget class and UTC day. Redis decides what counts across
 * processes (impression-writes.ts); this bounded memory only spares Redis a visitor's repeat
 * reports to the same process, so forgetting an entry costs one more write, never a count.
 */
import { LRUCache } from 'lru-cache';

export class ImpressionGate {
  // Made at the first impression: lru-cache allocates every slot up front (3 MB and 25 ms here).
  #seenSlots?: LRUCache<string, true>;
  /** `visitor|widget|operator|day` already queued here. */
  get #seen(): LRUCache<string, true> {
    return (this.#seenSlots ??= new LRUCache({ max: 200_000 }));
  }

  /** The operators not yet queued for `visitor` on `day` in `widget`, now marked as queued. */
  firstViews(visitor: string, widget: string, operatorIds: readonly string[], day: string): string[] {
    const fresh: string[] = [];
    for (const id of operatorIds) {
      const key = `${visitor}|${widget}|${id}|${day}`;
      if (this.#seen.has(key)) continue;
      this.#seen.set(key, true);
      fresh.push(id);
    }
    return fresh;
  }
}
