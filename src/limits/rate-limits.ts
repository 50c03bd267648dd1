/**
 * Request rate limits (rate-limiter-flexible): counted in Redis so every API process shares them,
 * with an in-memory limiter of the same size standing in while Redis fails or its breaker is open
 * (store/redis-breaker.ts: a frozen Redis then costs nothing per request), and keys over their
 * limit blocked in memory on every process (limit-blocks.ts) so a flood costs no Redis round trip.
 * The one exception is `readyz`, counted in memory per instance: a health check asks about this
 * instance only, and must answer the same whether Redis does or not.
 * A refusal is the 429 problem `rate_limited` with Retry-After and the IETF RateLimit-Policy /
 * RateLimit headers. An advertiser's other answers carry the same two headers with what is left
 * (`usage`): this process's view, from the last batch taken from Redis less what it charged since.
 *
 * Limits on the widget path are charged after the reply (`charge`): points are summed per key and
 * taken from Redis in one command per key every CHARGE_MS, and the request itself only asks memory
 * whether its key is blocked (`blockedNow`). A key is blocked as soon as its allowance is used up,
 * so it overshoots only by what it sends within one batch.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config, RateLimit } from '../config.js';
import { rateLimitRejections } from '../metrics/http.js';
import { redisBreaker, type RedisBreaker } from '../store/redis-breaker.js';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../model/clock.js';
import { LimitBlocks } from './limit-blocks.js';
import { limitPrefix, type LimitName } from './limit-names.js';
import { Problem } from '../model/problem.js';

const CHARGE_MS = 50;

/** Two response headers of a request's own, as name/value pairs (transport/types.ts, Request.ownHeaders). */
export type UsageHeaders = readonly [name: string, value: string, name2: string, value2: string];

/** The RateLimit-Policy field value of `name`. */
const policyField = (name: LimitName, limit: RateLimit) => `"${name}";q=${limit.points};w=${limit.seconds}`;

/** The 429 problem for `name`, retryable after `msBeforeNext`. */
export function rateLimited(name: LimitName, limit: RateLimit, msBeforeNext: number): Problem {
  const retry = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new Problem(
    429,
    'rate_limited',
    `Too many requests (${name}: ${limit.points} per ${limit.seconds} s); retry in ${retry} s.`,
    [],
    {
      'retry-after': String(retry),
      'ratelimit-policy': policyField(name, limit),
      ratelimit: `"${name}";r=0;t=${retry}`,
    },
  );
}

/** What the store said of a key at its last take: points left, and when its window resets. */
interface Allowance {
  remaining: number;
  resetAtMs: number;
}

interface Limiter {
  limit: RateLimit;
  /** Counted in Redis, shared by every process; none: counted in this process only, blocking nowhere else. */
  shared?: RateLimiterRedis;
  /** This process's count: the limit itself when not shared, else the stand-in while Redis fails. */
  memory: RateLimiterMemory;
}

export class RateLimits {
  readonly #limiters: Record<LimitName, Limiter>;
  readonly #blocks: LimitBlocks;
  /** Points charged and not yet taken from Redis: limit → key → points. */
  #pending = new Map<LimitName, Map<string, number>>();
  #timer: NodeJS.Timeout | undefined;
  /** Per advertiser, the allowance Redis reported at the last take (usage headers). */
  readonly #allowances = new LRUCache<string, Allowance>({ max: 10_000 });
  readonly #advertiserPolicy: string;
  /** Per advertiser, points sent to Redis whose answer has not come back. */
  readonly #taking = new Map<string, number>();

  constructor(
    redis: Redis,
    config: Config['limits'],
    /** The request path's breaker, shared with the other commands on `redis`. */
    private readonly breaker: RedisBreaker = redisBreaker(),
    private readonly now: Clock = systemClock,
  ) {
    // A block lifted early (limit-blocks.ts) forgets the key's count here too, in memory and in Redis.
    this.#blocks = new LimitBlocks(
      redis,
      (name, key) => {
        const limiter = this.#limiters[name as LimitName];
        if (!limiter) return;
        void limiter.memory.delete(key);
        void limiter.shared?.delete(key).catch(() => {});
      },
      now,
    );
    const make = (name: LimitName, limit: RateLimit, blockSeconds = 0): Limiter => {
      const base = {
        keyPrefix: limitPrefix(name),
        points: limit.points,
        duration: limit.seconds,
        blockDuration: blockSeconds,
      };
      return {
        limit,
        memory: new RateLimiterMemory(base),
        shared: new RateLimiterRedis({
          ...base,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          inMemoryBlockOnConsumed: limit.points + 1,
          inMemoryBlockDuration: blockSeconds || limit.seconds,
        }),
      };
    };
    this.#limiters = {
      click: make('click', config.click),
      ws_upgrade: make('ws_upgrade', config.wsUpgrade),
      // Per instance: a health check asks about this instance, and must not depend on Redis.
      readyz: {
        limit: config.readyz,
        memory: new RateLimiterMemory({
          keyPrefix: 'readyz',
          points: config.readyz.points,
          duration: config.readyz.seconds,
        }),
      },
      variant_build: make('variant_build', config.variantBuild),
      advertiser: make('advertiser', config.advertiser),
      auth_failures: make('auth_failures', config.authFailures, config.authBlockSeconds),
    };
    this.#advertiserPolicy = policyField('advertiser', config.advertiser);
  }

  /**
   * The RateLimit-Policy and RateLimit headers for advertiser `key` after what it was charged
   * (memory only: a map lookup and one string per request). `r` counts down between batches and is
   * set right by each batch's answer from Redis; `t` is the seconds until the window resets.
   */
  usage(key: string, nowMs: number): UsageHeaders {
    const { points, seconds } = this.#limiters.advertiser.limit;
    const known = this.#allowances.get(key);
    const current = known !== undefined && known.resetAtMs > nowMs;
    const charged = (this.#pending.get('advertiser')?.get(key) ?? 0) + (this.#taking.get(key) ?? 0);
    const left = (current ? known.remaining : points) - charged;
    const reset = current ? Math.max(1, Math.ceil((known.resetAtMs - nowMs) / 1000)) : seconds;
    return ['ratelimit-policy', this.#advertiserPolicy, 'ratelimit', `"advertiser";r=${Math.max(0, left)};t=${reset}`];
  }

  limit(name: LimitName): RateLimit {
    return this.#limiters[name].limit;
  }

  /** Follows the blocks other processes find (`subscriber`: a connection in subscriber mode). */
  start(subscriber: Redis): Promise<void> {
    return this.#blocks.start(subscriber);
  }

  /** Takes what is still charged (a stopping process keeps no debt). */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#takeCharged();
  }

  /**
   * Takes `points` from `key`'s allowance; resolves with the 429 problem when none is left (and
   * blocks the key on every process), undefined when the request may go on (also when no store can
   * answer: a limiter outage must not take the API down with it).
   */
  async take(name: LimitName, key: string, points = 1): Promise<Problem | undefined> {
    try {
      await this.#consume(this.#limiters[name], key, points);
      return undefined;
    } catch (res) {
      return this.#refused(name, key, res);
    }
  }

  /** A rejected consume: the 429 problem, with the key blocked on every process; undefined for a store error. */
  #refused(name: LimitName, key: string, res: unknown): Problem | undefined {
    if (!(res instanceof RateLimiterRes)) return undefined;
    rateLimitRejections.labels(name).inc();
    if (this.#limiters[name].shared) this.#blocks.block(name, key, this.now() + res.msBeforeNext);
    return rateLimited(name, this.#limiters[name].limit, res.msBeforeNext);
  }

  /** Whether any key is blocked in memory: when none is, a caller need not work out its key. */
  get anyBlocked(): boolean {
    return this.#blocks.any;
  }

  /** The 429 problem when `key` is blocked under `name`, from memory only. */
  blockedNow(name: LimitName, key: string, nowMs: number): Problem | undefined {
    const ms = this.#blocks.remaining(name, key, nowMs);
    if (ms === 0) return undefined;
    rateLimitRejections.labels(name).inc();
    return rateLimited(name, this.#limiters[name].limit, ms);
  }

  /** Charges one point to `key` after the fact; taken from Redis with the others within CHARGE_MS. */
  charge(name: LimitName, key: string): void {
    let keys = this.#pending.get(name);
    if (!keys) this.#pending.set(name, (keys = new Map()));
    keys.set(key, (keys.get(key) ?? 0) + 1);
    if (!this.#timer) {
      this.#timer = setTimeout(() => void this.#takeCharged(), CHARGE_MS);
      this.#timer.unref();
    }
  }

  async #takeCharged(): Promise<void> {
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = new Map();
    const takes: Array<Promise<unknown>> = [];
    for (const [name, keys] of pending)
      for (const [key, points] of keys) takes.push(this.#takeAfter(name, key, points));
    await Promise.all(takes);
  }

  /**
   * Takes points charged after the reply. A key left with none is blocked at once: its requests
   * are served before they are charged, so the next one would otherwise go out past the limit.
   */
  async #takeAfter(name: LimitName, key: string, points: number): Promise<void> {
    const usage = name === 'advertiser';
    if (usage) this.#taking.set(key, (this.#taking.get(key) ?? 0) + points);
    try {
      const res = await this.#consume(this.#limiters[name], key, points);
      if (name === 'advertiser')
        this.#allowances.set(key, { remaining: res.remainingPoints, resetAtMs: this.now() + res.msBeforeNext });
      if (res.remainingPoints === 0) this.#blocks.block(name, key, this.now() + res.msBeforeNext);
    } catch (res) {
      this.#refused(name, key, res);
    } finally {
      if (usage) {
        const left = this.#taking.get(key)! - points;
        if (left > 0) this.#taking.set(key, left);
        else this.#taking.delete(key);
      }
    }
  }

  /**
   * Takes `points` from Redis through the breaker, else (Redis failing, breaker open) from memory.
   * Rejects with a RateLimiterRes when the key has none left.
   */
  async #consume(limiter: Limiter, key: string, points: number): Promise<RateLimiterRes> {
    const { shared, memory } = limiter;
    if (shared) {
      // A refusal is an answer from Redis, not a failure of it: the breaker must not count it.
      const answer = await this.breaker
        .execute(() =>
          shared
            .consume(key, points)
            .catch((res: unknown) => (res instanceof RateLimiterRes ? { refused: res } : Promise.reject(res))),
        )
        .catch(() => undefined);
      if (answer instanceof RateLimiterRes) return answer;
      if (answer) throw answer.refused;
    }
    return memory.consume(key, points);
  }

  /** Like take(), but throws the problem. */
  async consume(name: LimitName, key: string): Promise<void> {
    const problem = await this.take(name, key);
    if (problem) throw problem;
  }

  /** The 429 problem when `key` has used up its allowance (and is blocked), without taking a point. */
  async blocked(name: LimitName, key: string): Promise<Problem | undefined> {
    const { shared, memory, limit } = this.#limiters[name];
    const res = shared
      ? await this.breaker.execute(() => shared.get(key)).catch(() => memory.get(key))
      : await memory.get(key);
    if (!res || res.consumedPoints <= limit.points) return undefined;
    rateLimitRejections.labels(name).inc();
    return rateLimited(name, limit, res.msBeforeNext);
  }
}
