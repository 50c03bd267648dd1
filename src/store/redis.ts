import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../log.js';

/**
 * Opens an ioredis connection. `role` names it in logs and in CLIENT LIST. Subscriber connections
 * must be separate from command connections (a subscribed connection can run nothing else).
 */
export function connectRedis(url: string, role: string, log: Logger, extra: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `predictwire:${role}`,
    // Keep retrying forever with a capped backoff: Redis restarts must not kill the process.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...extra,
  });
  let lastState = 'ok';
  redis.on('error', (err: Error) => {
    // ioredis emits one error per retry; log only the first of a streak.
    if (lastState !== 'error') log.warn({ err: err.message, role }, 'redis connection error');
    lastState = 'error';
  });
  redis.on('ready', () => {
    if (lastState === 'error') log.info({ role }, 'redis connection restored');
    lastState = 'ok';
  });
  return redis;
}

/**
 * A command connection for the request path: no offline queue and a command timeout, so a command
 * issued while Redis is away fails at once (or after `commandTimeoutMs`) instead of waiting for
 * the reconnect; callers answer from memory or with a 503.
 */
export function connectRedisFailFast(url: string, role: string, log: Logger, commandTimeoutMs: number): Redis {
  return connectRedis(url, role, log, { enableOfflineQueue: false, commandTimeout: commandTimeoutMs, maxRetriesPerRequest: 0 });
}

/** Resolves once `redis` is ready (a fail-fast connection refuses commands before that). */
export function whenReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}
