/**
 * How the command-line tools reach Redis: with the settings the API reads (REDIS_SENTINELS or
 * REDIS_URL, so under Sentinel a tool writes to the current primary), else the private Redis of an
 * `npm start` running in this folder (it records its URL under DATA_DIR, default .data/). The
 * connection itself is store/redis-once.ts: one attempt, failing in one line.
 */
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../config.js';
import { ConfigError } from '../runtime/config-error.js';
import { dataDir, launcherRedisUrl } from '../runtime/redis-url-file.js';
import { connectOnce } from '../store/redis-once.js';

/** The environment to read settings from, and where its Redis setting came from (for messages). */
function redisSettings(): { env: NodeJS.ProcessEnv; from: string } {
  if (process.env.REDIS_SENTINELS) return { env: process.env, from: 'REDIS_SENTINELS' };
  if (process.env.REDIS_URL) return { env: process.env, from: 'REDIS_URL' };
  const dir = dataDir();
  const url = launcherRedisUrl(dir);
  if (url) return { env: { ...process.env, REDIS_URL: url }, from: `npm start (recorded in ${dir})` };
  throw new ConfigError(
    'no Redis to talk to: set REDIS_URL or REDIS_SENTINELS, or run this next to a running `npm start`',
  );
}

/**
 * Redis, and the settings the API reads (the pepper and its production checks among them), so a
 * tool hashes and derives as the API does.
 * @throws ConfigError (no Redis to talk to, a bad setting) or RedisUnreachableError (naming where
 * it looked, never a password): both a line for the user (run-command.ts).
 */
export async function openRedis(): Promise<{ redis: Redis; config: Config }> {
  const { env, from } = redisSettings();
  const config = loadConfig(env);
  return { redis: await connectOnce(config.redis, from), config };
}
