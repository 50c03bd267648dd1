/**
 * Request rate limits (rate-limiter-flexible): counted in Redis so every API process shares them,
 * with an in-memory limiter of the same size standing in while Redis is away, and keys over their
 * limit blocked in memory so a flood costs no Redis round trip. A refusal is the 429 problem
 * `rate_limited` with Retry-After and the IETF RateLimit-Policy / RateLimit headers.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config, RateLimit } from '../config.js';
import { rateLimitRejections } from '../metrics/http.js';
import { Problem } from './problem.js';

export type LimitName = 'click' | 'ws_upgrade' | 'readyz' | 'variant_build' | 'advertiser' | 'auth_failures';

/** The 429 problem for `name`, retryable after `msBeforeNext`. */
export function rateLimited(name: LimitName, limit: RateLimit, msBeforeNext: number): Problem {
  const retry = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new Problem(429, 'rate_limited', `Too many requests (${name}: ${limit.points} per ${limit.seconds} s); retry in ${retry} s.`, [], {
    'retry-after': String(retry),
    'ratelimit-policy': `"${name}";q=${limit.points};w=${limit.seconds}`,
    ratelimit: `"${name}";r=0;t=${retry}`,
  });
}

interface Limiter {
  limit: RateLimit;
  redis: RateLimiterRedis;
}

export class RateLimits {
  readonly #limiters: Record<LimitName, Limiter>;

  constructor(redis: Redis, config: Config['limits']) {
    const make = (name: LimitName, limit: RateLimit, blockSeconds = 0): Limiter => {
      const base = { keyPrefix: `pw:rl:${name}`, points: limit.points, duration: limit.seconds, blockDuration: blockSeconds };
      return {
        limit,
        redis: new RateLimiterRedis({
          ...base,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          inMemoryBlockOnConsumed: limit.points + 1,
          inMemoryBlockDuration: blockSeconds || limit.seconds,
          insuranceLimiter: new RateLimiterMemory(base),
        }),
      };
    };
    this.#limiters = {
      click: make('click', config.click),
      ws_upgrade: make('ws_upgrade', config.wsUpgrade),
      readyz: make('readyz', config.readyz),
      variant_build: make('variant_build', config.variantBuild),
      advertiser: make('advertiser', config.advertiser),
      auth_failures: make('auth_failures', config.authFailures, config.authBlockSeconds),
    };
  }

  limit(name: LimitName): RateLimit {
    return this.#limiters[name].limit;
  }

  /**
   * Takes one point from `key`'s allowance; resolves with the 429 problem when none is left,
   * undefined when the request may go on (also when no store can answer: a limiter outage must
   * not take the API down with it).
   */
  async take(name: LimitName, key: string): Promise<Problem | undefined> {
    const { redis, limit } = this.#limiters[name];
    try {
      await redis.consume(key);
      return undefined;
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) return undefined;
      rateLimitRejections.labels(name).inc();
      return rateLimited(name, limit, res.msBeforeNext);
    }
  }

  /** Like take(), but throws the problem. */
  async consume(name: LimitName, key: string): Promise<void> {
    const problem = await this.take(name, key);
    if (problem) throw problem;
  }

  /** The 429 problem when `key` has used up its allowance (and is blocked), without taking a point. */
  async blocked(name: LimitName, key: string): Promise<Problem | undefined> {
    const { redis, limit } = this.#limiters[name];
    const res = await redis.get(key).catch(() => null);
    if (!res || res.consumedPoints <= limit.points) return undefined;
    rateLimitRejections.labels(name).inc();
    return rateLimited(name, limit, res.msBeforeNext);
  }
}
