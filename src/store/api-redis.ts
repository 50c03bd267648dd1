/**
 * The Redis part of an API process: its connections, the breaker around request-path commands, the
 * eviction-policy watch, and whether Redis answered at start (a cold start serves the disk copy).
 */
import type { Redis } from 'ioredis';
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { Logger } from '../runtime/log.js';
import { EvictionPolicy } from './eviction-policy.js';
import { redisBreaker, type RedisBreaker } from './redis-breaker.js';
import { closeRedis, connectRedis, connectRedisFailFast, type RedisTarget, readyWithin } from './redis.js';

/** How long a starting API waits for Redis before serving the disk copy of its snapshots instead. */
const COLD_START_WAIT_MS = 5_000;

export interface ApiRedis {
  /** Background work: snapshot loads, strikes, ranking reads; queues while Redis is away. */
  redis: Redis;
  /** Snapshot, compliance, key and limit notices. */
  subscriber: Redis;
  /** The request path's connection: no offline queue, short command timeout (fails fast). */
  requestRedis: Redis;
  /** One breaker for every command a request waits on: a frozen Redis costs the first few, then none. */
  breaker: RedisBreaker;
  /** Redis's maxmemory-policy, watched (/readyz names an unsafe one). */
  eviction: EvictionPolicy;
  /** Whether Redis answered within COLD_START_WAIT_MS of the start. */
  atStart: boolean;
}

/** Connects, and registers the quit: started first, so Redis is the last thing an API process lets go. */
export async function openApiRedis(
  life: Lifecycle,
  config: { redis: RedisTarget; redisCommandTimeoutMs: number },
  log: Logger,
): Promise<ApiRedis> {
  const connections = await life.start(
    () => ({
      redis: connectRedis(config.redis, 'api', log),
      subscriber: connectRedis(config.redis, 'api-sub', log),
      // Requests never wait for a reconnect: their commands fail fast and the route answers anyway.
      requestRedis: connectRedisFailFast(config.redis, 'api-requests', log, config.redisCommandTimeoutMs),
    }),
    (c) => closeRedis(c.redis, c.subscriber, c.requestRedis),
  );
  const atStart = await readyWithin(connections.requestRedis, COLD_START_WAIT_MS);
  const breaker = redisBreaker((open) =>
    open
      ? log.warn('redis failing: request-path commands skipped (breaker open)')
      : log.info('redis answers again (breaker closed)'),
  );
  // A Redis that may evict our data is named at start, in /readyz and in a metric.
  const eviction = await life.start(
    () => {
      const policy = new EvictionPolicy(connections.redis, log);
      policy.start();
      return policy;
    },
    (policy) => policy.stop(),
  );
  return { ...connections, breaker, eviction, atStart };
}

/**
 * Runs the steps that follow live data in Redis (subscriptions, first loads), one after another. A
 * cold start (Redis away, the disk copy served) listens at once and follows when Redis comes back:
 * these commands wait for it.
 */
export async function followRedis(
  redis: ApiRedis,
  cold: boolean,
  log: Logger,
  steps: ReadonlyArray<() => unknown>,
): Promise<void> {
  const follow = async () => {
    for (const step of steps) await step();
  };
  if (cold && !redis.atStart)
    void follow().then(
      () => log.info('redis reached: following live data again'),
      (err: unknown) => log.error({ err }, 'could not follow Redis after a cold start'),
    );
  else await follow();
}
