/**
 * Which addresses failed to authenticate as which advertiser, so that an operator who just fixed
 * that advertiser's keys (`npm run advertiser -- import|rotate|retire`) also lifts the blocks its
 * own servers earned meanwhile: a restore or a rotation with one forgotten server would otherwise
 * keep the advertiser's egress address at 429 for AUTH_FAILURE_BLOCK_SECONDS, valid keys included.
 * Per advertiser id Redis holds the set of failing address keys, kept as long as a block can last.
 * Lifting a block also lifts it for whoever else failed from that address as the same advertiser.
 */
import type { Redis } from 'ioredis';
import { BLOCKS_CHANNEL } from './limit-blocks.js';
import { limitPrefix } from './limit-names.js';

/** The address keys whose failed authentications named advertiser `id`. */
export const failedFromKey = (id: string) => `pw:authfail:${id}`;

/** Notes that `address` failed to authenticate as `id`; kept `seconds` (the failure window plus the block). */
export async function noteFailedAddress(redis: Redis, id: string, address: string, seconds: number): Promise<void> {
  await redis.multi().sadd(failedFromKey(id), address).expire(failedFromKey(id), seconds).exec();
}

/**
 * What the auth stage is given rather than Redis: notes a failure as `noteFailedAddress` does, kept
 * the failure window plus the block (`seconds`), without waiting and without failing (it is only
 * what lifting a block needs).
 */
export const authFailureNotes =
  (redis: Redis, seconds: number) =>
  (id: string, address: string): void =>
    void noteFailedAddress(redis, id, address, seconds).catch(() => {});

/**
 * Lifts the failed-authentication blocks of every address that failed as `id`, in Redis and (by a
 * notice) on every API process; returns how many addresses.
 */
export async function liftAuthFailureBlocks(redis: Redis, id: string): Promise<number> {
  const addresses = await redis.smembers(failedFromKey(id));
  if (addresses.length === 0) return 0;
  const pipe = redis.pipeline();
  for (const address of addresses) {
    pipe.del(`${limitPrefix('auth_failures')}:${address}`);
    pipe.publish(BLOCKS_CHANNEL, JSON.stringify({ name: 'auth_failures', key: address, until: 0 }));
  }
  pipe.del(failedFromKey(id));
  await pipe.exec();
  return addresses.length;
}
