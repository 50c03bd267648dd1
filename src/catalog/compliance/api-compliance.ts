/** The compliance part of an API process: rules and suspensions followed from Redis. */
import type { Lifecycle } from '../../runtime/lifecycle.js';
import type { Logger } from '../../runtime/log.js';
import type { ApiRedis } from '../../store/api-redis.js';
import { OPERATORS } from '../operators.js';
import { ComplianceFollower } from './follower.js';

/** With Redis away at start, the disk copy's suspensions hold until it answers (`start` then follows it). */
export function openCompliance(
  life: Lifecycle,
  config: { dataDir: string },
  log: Logger,
  redis: ApiRedis,
): ComplianceFollower {
  const compliance = new ComplianceFollower(redis.redis, redis.subscriber, log, {
    operatorIds: OPERATORS.map((op) => op.id),
    dataDir: config.dataDir,
  });
  if (!redis.atStart) compliance.seedFromDisk();
  life.onStop(() => compliance.stop());
  return compliance;
}
