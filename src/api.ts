/**
 * Assembles one API process from a config: Redis connections, snapshot cache, router, server.
 * main.ts runs it; tests and benchmarks start it the same way.
 */
import { AdvertiserKeys } from './auth/advertiser-keys.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { Deps } from './http/deps.js';
import { PayloadCache } from './http/payload-cache.js';
import { createRouter } from './http/router.js';
import { listenHttp } from './http/server.js';
import { connectRedis } from './store/redis.js';
import { SnapshotCache } from './store/snapshot-cache.js';

export interface ApiProcess {
  port: number;
  deps: Deps;
  stop(): Promise<void>;
}

export async function startApi(config: Config, log: Logger): Promise<ApiProcess> {
  const redis = connectRedis(config.redisUrl, 'api', log);
  const subscriber = connectRedis(config.redisUrl, 'api-sub', log);
  const snapshots = new SnapshotCache(redis, subscriber, log);
  const payloads = new PayloadCache();
  snapshots.onChange((snap) => {
    payloads.invalidate(snap.kind);
    log.debug({ kind: snap.kind, key: snap.key, version: snap.version }, 'snapshot updated');
  });
  await snapshots.start();

  const deps: Deps = {
    config,
    redis,
    snapshots,
    payloads,
    advertisers: new AdvertiserKeys(redis, config.apiKeyPepper),
    log,
    now: () => new Date(),
  };
  const server = await listenHttp(config.host, config.port, createRouter(deps), log);
  log.info({ port: server.port, host: config.host }, 'api listening');

  return {
    port: server.port,
    deps,
    async stop() {
      server.close();
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
    },
  };
}
