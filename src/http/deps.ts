/** Everything a route handler may use. Built once in main.ts. */
import type { Redis } from 'ioredis';
import type { AdvertiserKeys } from '../auth/advertiser-keys.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import type { PayloadCache } from './payload-cache.js';

export interface Deps {
  config: Config;
  redis: Redis;
  snapshots: SnapshotCache;
  payloads: PayloadCache;
  advertisers: AdvertiserKeys;
  log: Logger;
  now(): Date;
}
