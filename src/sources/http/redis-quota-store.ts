/** A provider's quota and call times in Redis (`pw:quota:{upstream}`), so they survive worker restarts. */
import type { Redis } from 'ioredis';
import { SavedPacing, type QuotaStore } from './quota-store.js';
import { readJsonValue } from '../../store/json-value.js';

// Longer than any block or interval (a month): a key nobody writes any more cleans itself up.
const TTL_SECONDS = 40 * 86_400;

export function redisQuotaStore(redis: Redis, upstream: string): QuotaStore {
  const key = `pw:quota:${upstream}`;
  return {
    load: () => readJsonValue(redis, key, SavedPacing),
    async save(pacing) {
      await redis.set(key, JSON.stringify(pacing), 'EX', TTL_SECONDS);
    },
  };
}
