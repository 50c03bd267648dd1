/**
 * A Redis connection for tools (the advertiser CLI, the `npm start` launcher): one attempt, no
 * retries, so an unreachable Redis or Sentinel is one line naming where it was looked for, not a
 * wait or a stack trace.
 */
import { Redis } from 'ioredis';
import type { RedisTarget } from './redis.js';
import { targetOptions } from './redis.js';

export class RedisUnreachableError extends Error {
  override name = 'RedisUnreachableError';
}

/** Where `target` points, for a person, without its password. */
export function describeTarget(target: RedisTarget): string {
  if (target.sentinel) {
    return `the primary "${target.sentinel.masterName}" of the sentinels ${target.sentinel.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
  }
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * Connects to `target` once. `from` says where the setting came from (`REDIS_URL`).
 * @throws RedisUnreachableError, `cannot reach Redis at ... (from ...): cause`, when it cannot.
 */
export async function connectOnce(target: RedisTarget, from: string): Promise<Redis> {
  const redis = new Redis(target.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    ...targetOptions(target),
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
  });
  let cause = '';
  redis.on('error', (err: Error) => (cause = err.message)); // reported once, below
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new RedisUnreachableError(
      `cannot reach Redis at ${describeTarget(target)} (from ${from}): ${cause || (err as Error).message}`,
    );
  }
  return redis;
}
