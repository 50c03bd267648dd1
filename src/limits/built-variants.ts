/**
 * Which request variants (path and query) have had a body built before. Only the first build of a
 * variant is charged to `variant_build`: rebuilding it after a data change is caused by the data,
 * not by whoever happens to ask first, and an address blocked for building new variants still gets
 * the ones already built.
 */
import { LRUCache } from 'lru-cache';

/** A request's path and raw query: what makes a variant. */
export interface RequestVariant {
  path: string;
  query: string;
}

// Far above the variants real widgets ask for; past it the oldest is forgotten and charged again.
const MAX_VARIANTS = 100_000;

export class BuiltVariants {
  readonly #seen = new LRUCache<string, true>({ max: MAX_VARIANTS });

  /** True when a body for `req`'s variant was built before (by anyone). */
  has(req: RequestVariant): boolean {
    return this.#seen.has(variantOf(req));
  }

  /** Notes that `req` caused a build; true when its variant had never been built (charge it). */
  first(req: RequestVariant): boolean {
    const variant = variantOf(req);
    if (this.#seen.has(variant)) return false;
    this.#seen.set(variant, true);
    return true;
  }
}

const variantOf = (req: RequestVariant) => `${req.path}?${req.query}`;
