/** Everything a route handler may use. Built once per API process by startHttp (http/api-server.ts). */
import type { Redis } from 'ioredis';
import type { AdvertiserKeys } from '../auth/advertiser-keys.js';
import type { LivePayloads } from '../serve/live-payloads.js';
import type { Logger } from '../runtime/log.js';
import type { SnapshotFreshness } from '../store/snapshot-freshness.js';
import type { GeoResolver } from '../geo/resolver.js';
import type { ImpressionCounter } from '../tracking/impression-counter.js';
import type { VerifiedKeys } from '../auth/verified-keys.js';
import type { ClickBuffer } from '../tracking/click-buffer.js';
import type { PostbackBuffer } from '../tracking/postback-buffer.js';
import type { PostbackKeyring } from '../auth/postback-keyring.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { RedisBreaker } from '../store/redis-breaker.js';
import type { EvictionPolicy } from '../store/eviction-policy.js';
import type { DataDirWatch } from '../store/data-dir-watch.js';

import type { ServeContext } from '../serve/context.js';
import type { Refusal } from '../catalog/compliance/follower.js';

/** The serving layer's context, and what routes need besides. */
export interface Deps extends ServeContext {
  /** The request path's connection: no offline queue, short command timeout (fails fast). */
  redis: Redis;
  /** The breaker around `redis`'s commands (store/redis-breaker.ts). */
  breaker: RedisBreaker;
  advertisers: AdvertiserKeys;
  live: LivePayloads;
  /** Open WebSocket connections. */
  wsConnections(): number | Promise<number>;
  /** Client country from the address (broad widget, click visitor ids). */
  geo: GeoResolver;
  /** Batched per-operator impression counts. */
  impressions: ImpressionCounter;
  /** How fresh each expected snapshot is (polled in the background). */
  freshness: SnapshotFreshness;
  log: Logger;
  /** Advertiser key checks with a short cache, and the registered advertiser ids. */
  verifiedKeys: VerifiedKeys;
  /** Per-address and per-advertiser request limits. */
  limits: RateLimits;
  /** Clicks waiting to be written to Redis. */
  clicks: ClickBuffer;
  /** Redis's maxmemory-policy, watched (/readyz names an unsafe one). */
  eviction: EvictionPolicy;
  /** Whether the data folder can take spilled counts (/readyz says when not). */
  dataDir: DataDirWatch;
  /** Operators' live postback secrets, in memory. */
  postbackKeyring: PostbackKeyring;
  /** Postbacks waiting for Redis (taken while it was away). */
  postbacks: PostbackBuffer;
  /** True from SIGTERM on: /readyz answers 503 so load balancers stop sending before we close. */
  draining(): boolean;
  /** Which compliance revision this process follows, and a published rules document it refused. */
  compliance: { readonly revision: number; readonly refused: Refusal | undefined };
}
