import { type Command, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../runtime/log.js';

/** A host and port of a Redis sentinel. */
export type SentinelAddress = { host: string; port: number };

/** Where Redis is: one server (`url`), or a primary found through Sentinel (set by config.ts). */
export interface RedisTarget {
  /** The server; under Sentinel only its password, db and TLS are used (host and port come from Sentinel). */
  url: string;
  sentinel?: { sentinels: SentinelAddress[]; masterName: string; password: string | undefined };
}

/** How long a sentinel may take to name the primary: it answers from memory, in well under a millisecond. */
const SENTINEL_ANSWER_MS = 1_000;

/**
 * ioredis options that reach the target: nothing for a single server; for Sentinel, the sentinels
 * and master name, plus the settings that carry a connection through a failover (below). Exported for callers
 * that build their own client (CLI tools).
 */
export function targetOptions(target: RedisTarget): RedisOptions {
  if (!target.sentinel) return {};
  return {
    sentinels: target.sentinel.sentinels,
    name: target.sentinel.masterName,
    ...(target.sentinel.password && { sentinelPassword: target.sentinel.password }),
    // Reconnect as soon as a sentinel announces +switch-master, instead of when the old socket dies.
    failoverDetector: true,
    // A demoted primary answers writes with READONLY: reconnect (Sentinel names the new primary)
    // and resend the command instead of failing it.
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
    // A sentinel that takes the connection and never answers (its host stalled) is passed over
    // for the next one: without a timeout every reconnect waits on it for as long as it is stuck.
    sentinelCommandTimeout: SENTINEL_ANSWER_MS,
  };
}

/**
 * An ioredis client that knows whether its owner closed it (disconnect or QUIT), so one that ends
 * otherwise can be connected again (connectRedis).
 */
class OwnedRedis extends Redis {
  closedByOwner = false;

  constructor(url: string, options: Omit<RedisOptions, 'replyMapping'>) {
    super(url, options);
  }

  override disconnect(reconnect = false): void {
    if (!reconnect) this.closedByOwner = true;
    super.disconnect(reconnect);
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    if (command.name === 'quit') this.closedByOwner = true;
    return super.sendCommand(command, stream);
  }
}

/**
 * Opens an ioredis connection to `config.redis` (one server or Sentinel). It takes the target, not
 * a URL, so no connection can silently bypass Sentinel. `role` names it in logs and in CLIENT LIST.
 * Subscriber connections must be separate from command connections (a subscribed connection can
 * run nothing else).
 *
 * A connection that ends without being closed connects again. ioredis (6.0.0) ends a Sentinel
 * client for good when a sentinel's +switch-master notice reaches its failover detector while it
 * is asking a sentinel for the primary after losing the old one: the connector's stop makes that
 * reconnect throw "Connection is closed.", and nothing retries. An API whose tick or
 * snapshot-notice connection ended so served frozen widgets until restarted. Its subscriptions
 * come back with it (ioredis resubscribes what it held when it was last ready).
 */
export function connectRedis(target: RedisTarget, role: string, log: Logger, extra: RedisOptions = {}): Redis {
  const redis = new OwnedRedis(target.url, {
    connectionName: `predictwire:${role}`,
    // Keep retrying forever with a capped backoff: Redis restarts must not kill the process.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...targetOptions(target),
    ...extra,
  });
  let lastState = 'ok';
  redis.on('error', (err: Error) => {
    // ioredis emits one error per retry; log only the first of a streak.
    if (lastState !== 'error') log.warn({ err: err.message, role }, 'redis connection error');
    lastState = 'error';
  });
  let ends = 0;
  redis.on('ready', () => {
    if (lastState === 'error') log.info({ role }, 'redis connection restored');
    lastState = 'ok';
    ends = 0;
  });
  redis.on('end', () => {
    if (redis.closedByOwner) return;
    const delayMs = Math.min(++ends * 200, 2_000);
    log.warn({ role, delayMs }, 'redis connection ended without being closed; connecting again');
    setTimeout(() => {
      if (!redis.closedByOwner && redis.status === 'end') redis.connect().catch(() => {}); // errors: logged above
    }, delayMs).unref();
  });
  return redis;
}

/**
 * A command connection for the request path: no offline queue and a command timeout, so a command
 * issued while Redis is away fails at once (or after `commandTimeoutMs`) instead of waiting for
 * the reconnect; callers answer from memory or with a 503.
 */
export function connectRedisFailFast(target: RedisTarget, role: string, log: Logger, commandTimeoutMs: number): Redis {
  return connectRedis(target, role, log, {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
  });
}

/** Resolves once `redis` is ready (a fail-fast connection refuses commands before that). */
export function whenReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}

/** Resolves true once `redis` is ready, false if it is not within `ms`. */
export function readyWithin(redis: Redis, ms: number): Promise<boolean> {
  return Promise.race([
    whenReady(redis).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
  ]);
}

/**
 * Lets go of `connections` at a stop. A ready connection quits, so replies still in flight arrive
 * first. One that is not ready is cut at once: ioredis would queue its QUIT behind whatever waits
 * in its offline queue (a snapshot read, a ranking load) until Redis came back, holding the stop
 * until the process's grace ran out. What is dropped can go: reads the stopping process no longer
 * needs, snapshots the next worker's refresh writes again, ticks already stale. What must be kept
 * (clicks, impressions, postbacks) goes through fail-fast connections and is spilled at the stop.
 */
export async function closeRedis(...connections: Redis[]): Promise<void> {
  await Promise.allSettled(connections.map((c) => (c.status === 'ready' ? c.quit() : c.disconnect())));
}
