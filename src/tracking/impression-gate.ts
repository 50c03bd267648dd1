/**
 * Once per visitor, operator, widget class and UTC day: which of a reported impression's operators
 * are new for that visitor. Kept in this process's memory (bounded), like the click buffer's first
 * check: a visitor whose reports reach several API processes can count once on each of them.
 */
import { LRUCache } from 'lru-cache';

export class ImpressionGate {
  /** `visitor|widget|operator|day` already counted here. */
  readonly #seen = new LRUCache<string, true>({ max: 200_000 });

  /** The operators not yet counted for `visitor` on `day` in `widget`, now marked as counted. */
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
