/** Everything a route handler may use. Built once in main.ts. */
import type { Redis } from 'ioredis';
import type { AdvertiserKeys } from '../auth/advertiser-keys.js';
import type { Config } from '../config.js';
import type { LivePayloads } from '../live/live-payloads.js';
import type { Logger } from '../log.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import type { SnapshotFreshness } from '../store/snapshot-freshness.js';
import type { PayloadCache } from './payload-cache.js';
import type { GeoResolver } from '../geo/resolver.js';
import type { ImpressionCounter } from '../tracking/impression-counter.js';
import type { RankingInputs } from '../tracking/ranking-inputs.js';

export interface Deps {
  config: Config;
  redis: Redis;
  snapshots: SnapshotCache;
  payloads: PayloadCache;
  advertisers: AdvertiserKeys;
  live: LivePayloads;
  /** Open WebSocket connections. */
  wsConnections(): number;
  /** Client country from the address (broad widget, click visitor ids). */
  geo: GeoResolver;
  /** Batched per-operator impression counts. */
  impressions: ImpressionCounter;
  /** In-memory ranking signals (OI acceleration, CTR counts). */
  ranking: RankingInputs;
  /** How fresh each expected snapshot is (polled in the background). */
  freshness: SnapshotFreshness;
  /** True once shutdown has begun: /readyz turns 503 so the load balancer drains this instance. */
  draining?(): boolean;
  log: Logger;
  now(): Date;
}
