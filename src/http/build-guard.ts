/**
 * Rate limit on cache misses: serving a cached widget body stays free, but a request that made us
 * build a new body (an uncached variant) takes a point from its address's `variant_build`
 * allowance afterwards, off the request's own path. An address that runs out is refused from
 * memory until its window ends, before any build, so walking variants cannot keep the CPU busy.
 */
import { LRUCache } from 'lru-cache';
import { rateLimited, type RateLimits } from './rate-limits.js';
import type { Problem } from './problem.js';

export class BuildGuard {
  /** Address key → epoch ms its block ends; purged when it ends, so `active` turns false again. */
  readonly #blocked = new LRUCache<string, number>({ max: 100_000, ttl: 60_000, ttlAutopurge: true });

  constructor(private readonly limits: RateLimits) {}

  /** Whether any address is blocked: when not, callers skip resolving the address at all. */
  get active(): boolean {
    return this.#blocked.size > 0;
  }

  /** The 429 problem when `address` is blocked. */
  check(address: string, nowMs: number): Problem | undefined {
    const until = this.#blocked.get(address);
    if (until === undefined || until <= nowMs) return undefined;
    return rateLimited('variant_build', this.limits.limit('variant_build'), until - nowMs);
  }

  /** Charges one build to `address` in the background; blocks it when its allowance is gone. */
  charge(address: string): void {
    void this.limits.take('variant_build', address).then((problem) => {
      if (!problem) return;
      const ms = Number(problem.headers['retry-after']) * 1000;
      this.#blocked.set(address, Date.now() + ms, { ttl: ms });
    });
  }
}
