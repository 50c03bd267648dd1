/**
 * Where the command-line tools find Redis: the settings the API reads (REDIS_SENTINELS or
 * REDIS_URL, so under Sentinel a tool writes to the current primary), else the private Redis of an
 * `npm start` running in this folder (it records its URL under DATA_DIR, default .data/). The
 * connection itself is store/redis-once.ts: one attempt, failing in one line.
 */
import { ConfigError } from '../config.js';
import { dataDir, launcherRedisUrl } from '../process/redis-url-file.js';

/** The environment to read settings from, and where its Redis setting came from (for messages). */
export function redisSettings(): { env: NodeJS.ProcessEnv; from: string } {
  if (process.env.REDIS_SENTINELS) return { env: process.env, from: 'REDIS_SENTINELS' };
  if (process.env.REDIS_URL) return { env: process.env, from: 'REDIS_URL' };
  const dir = dataDir();
  const url = launcherRedisUrl(dir);
  if (url) return { env: { ...process.env, REDIS_URL: url }, from: `npm start (recorded in ${dir})` };
  throw new ConfigError('no Redis to talk to: set REDIS_URL or REDIS_SENTINELS, or run this next to a running `npm start`');
}
