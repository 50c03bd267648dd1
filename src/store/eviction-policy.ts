/**
 * Redis's `maxmemory-policy`, watched. Everything predictwire keeps in Redis is meant to stay until
 * it is deleted or expires: under any policy but `noeviction` a full Redis drops snapshots, job
 * schedules, advertiser records or counts to make room, silently. The policy is read (INFO, which
 * managed services allow where CONFIG is disabled) after every reconnect and every CHECK_MS; an
 * unsafe one is logged when first seen, and shown by /readyz and a metric.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';

const CHECK_MS = 60_000;
export const SAFE_POLICY = 'noeviction';

/** The `maxmemory_policy` line of `INFO memory`; undefined when Redis does not say. */
export async function readEvictionPolicy(redis: Redis): Promise<string | undefined> {
  const info = await redis.info('memory');
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

export class EvictionPolicy {
  #policy: string | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly log: Logger,
  ) {}

  /** The policy last read; undefined before the first answer. */
  get policy(): string | undefined {
    return this.#policy;
  }

  /** The policy when it is not `noeviction` (Redis may drop our data), else undefined. */
  get unsafe(): string | undefined {
    return this.#policy !== undefined && this.#policy !== SAFE_POLICY ? this.#policy : undefined;
  }

  /** Reads the policy now (in the background: a start never waits for it), then after every reconnect and every minute. */
  start(): void {
    this.redis.on('ready', this.check);
    this.#timer = setInterval(this.check, CHECK_MS);
    this.#timer.unref();
    void this.check();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.redis.off('ready', this.check);
  }

  /** Reads the policy again (/readyz asks before it answers); logs a change to or from an unsafe one. */
  readonly check = async (): Promise<void> => {
    const policy = await readEvictionPolicy(this.redis).catch(() => undefined);
    if (policy === undefined || policy === this.#policy) return;
    const before = this.#policy;
    this.#policy = policy;
    if (policy !== SAFE_POLICY) {
      this.log.warn(
        { policy },
        `redis maxmemory-policy is ${policy}, not ${SAFE_POLICY}: a full Redis may evict snapshots, job schedules, advertiser records and counts; set maxmemory-policy ${SAFE_POLICY}`,
      );
    } else if (before !== undefined) {
      this.log.info({ policy }, `redis maxmemory-policy is ${SAFE_POLICY} again`);
    }
  };
}
