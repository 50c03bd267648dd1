/**
 * The HTTP part of an API process: the router over the other parts, the server with its WebSocket
 * route, readiness and the admin server. Started last: it listens once everything it serves is up,
 * and stops first (the live feeds' pushes, then the WebSocket hub, then the server).
 */
import type { ApiAuth } from '../auth/api-auth.js';
import type { ComplianceFollower } from '../catalog/compliance/follower.js';
import type { Config } from '../config.js';
import { LocationDb } from '../geo/location-db.js';
import { GeoResolver } from '../geo/resolver.js';
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { Logger } from '../runtime/log.js';
import { startAdminServer } from '../metrics/admin-server.js';
import { exposeReadiness } from '../metrics/readiness.js';
import { exposeEvictionPolicy, exposeRedisUp } from '../metrics/redis.js';
import type { Clock } from '../model/clock.js';
import type { ApiServing } from '../serve/api-serving.js';
import type { ApiRedis } from '../store/api-redis.js';
import type { ApiSnapshots } from '../store/api-snapshots.js';
import { breakerOpen } from '../store/redis-breaker.js';
import type { ApiTracking } from '../tracking/api-tracking.js';
import { listenHttp } from '../transport/server.js';
import type { WsHub } from '../transport/ws-server.js';
import type { ConnectionLedger } from '../transport/ws/connection-ledger.js';
import { authFailureNotes } from '../limits/auth-failure-blocks.js';
import { withTimeout } from '../runtime/with-timeout.js';
import { eventHistoryReader } from '../serve/event-history-body.js';
import type { SnapshotFreshness } from '../store/snapshot-freshness.js';
import { reportReader } from '../tracking/advertiser-report.js';
import { conversionWriter } from '../tracking/conversions.js';
import { createRouter } from './router.js';
import { assessReadiness, type ReadyDeps } from './routes/health.js';
import { fixedPages } from './routes/pages.js';
import { webSocketRoute } from './ws-route.js';

/** What an API worker (src/cluster/) shares with its primary; a single API process keeps both itself. */
export interface ApiWorkerLink {
  /** Per-address WebSocket slots, counted across every worker. */
  ledger: ConnectionLedger;
  /** WebSocket connections of the whole API, for /readyz. */
  wsConnections(): number | Promise<number>;
  /** Resolves when this worker may listen: once every worker of the start has its data. */
  mayListen(): Promise<void>;
}

/** The parts the routes serve from. */
export interface ServedParts {
  redis: ApiRedis;
  store: ApiSnapshots;
  compliance: ComplianceFollower;
  auth: ApiAuth;
  limits: RateLimits;
  tracking: ApiTracking;
  serving: ApiServing;
}

export interface ApiHttp {
  port: number;
  /** How fresh each expected snapshot is: polled before a worker's metrics are collected. */
  freshness: SnapshotFreshness;
  /** Reports not-ready (/readyz 503) for DRAIN_SECONDS, still serving, so load balancers move away. */
  drain(): Promise<void>;
  drainMs: number;
}

/** Listens (with API workers: when the primary says all may) and registers the server's stops. */
export async function startHttp(
  life: Lifecycle,
  config: Config,
  log: Logger,
  { redis, store, compliance, auth, limits, tracking, serving }: ServedParts,
  worker: ApiWorkerLink | undefined,
  clock: Clock,
): Promise<ApiHttp> {
  // Broad widget and click visitor ids: the location database is opened once.
  const locations = await LocationDb.open();
  const { origin, unreadable, cacheError } = locations.loaded;
  if (unreadable) log.warn({ err: unreadable }, 'geo table cache unreadable: built again');
  if (cacheError) log.warn({ err: cacheError }, 'geo table built but not cached: the next start builds it again');
  log.info({ builtAt: locations.builtAt.toISOString(), origin }, 'geo database loaded');
  const geo = new GeoResolver(locations, config.trustProxy, config.defaultGeo, config.cdnGeo);
  let draining = false;
  let hub: WsHub | undefined;
  const { requestRedis, breaker, eviction } = redis;
  const ctx = serving.ctx;
  const ready: ReadyDeps = {
    freshness: store.freshness,
    snapshots: ctx.snapshots,
    live: serving.live,
    config,
    now: ctx.now,
    draining: () => draining,
    eviction,
    dataDir: tracking.dataDir,
    pingRedis: () => breaker.execute(() => withTimeout(requestRedis.ping(), 1_000)),
    refresh: () => withTimeout(Promise.all([store.freshness.poll(), eviction.check()]), 1_000),
    wsConnections: worker?.wsConnections ?? (() => hub?.connections() ?? 0),
  };
  exposeRedisUp(requestRedis, breaker);
  exposeEvictionPolicy(eviction);
  exposeReadiness(() => assessReadiness(ready, requestRedis.status === 'ready' && !breakerOpen(breaker)).status);
  const startedAt = new Date(clock());
  const { routes, fallback } = createRouter(
    {
      config,
      log,
      geo,
      serve: ctx,
      live: serving.live,
      limits,
      auth: {
        verifiedKeys: auth.verifiedKeys,
        isRegistered: (id) => auth.verifiedKeys.isRegistered(id),
        noteFailure: authFailureNotes(
          requestRedis,
          config.limits.authFailures.seconds + config.limits.authBlockSeconds,
        ),
      },
      click: { clickSigningSecret: config.clickSigningSecret, clicks: tracking.clicks },
      impression: { clickSigningSecret: config.clickSigningSecret, impressions: tracking.impressions },
      postback: {
        postbackKeyring: auth.postbackKeyring,
        clickAttributionMs: config.clickAttributionMs,
        writeConversion: conversionWriter(requestRedis, breaker),
        postbacks: tracking.postbacks,
      },
      ready,
      compliance: { compliance, reviewDays: config.complianceReviewDays },
      reports: reportReader(requestRedis, () => ctx.snapshots.get('fx', 'daily')?.data),
      history: eventHistoryReader({ snapshots: ctx.snapshots, redis: requestRedis, now: ctx.now }),
      startedAt,
    },
    await fixedPages(config, startedAt),
  );
  // Workers listen together: a connection never lands on one still loading, nor on a port whose
  // group of listeners is still forming.
  await worker?.mayListen();
  const withWebSocket = webSocketRoute({ config, geo, limits, log }, serving.topics, worker?.ledger);
  const server = await life.start(
    () =>
      listenHttp(config.host, config.port, routes, fallback, log, (app) => {
        hub = withWebSocket(app);
      }),
    (listening) => listening.close(),
  );
  // Tell WebSocket clients we are going away before the server closes their sockets.
  life.onStop(() => hub?.closeAll());
  // The feeds stop pushing first, so nothing re-arms a push to a closing hub.
  if (hub) serving.pushTo(life, hub);
  log.info({ port: server.port, host: config.host }, 'api listening');
  await life.start(
    () => startAdminServer(config.admin.host, config.admin.apiPort, log),
    (admin) => admin?.close(),
  );
  return {
    port: server.port,
    freshness: store.freshness,
    drainMs: config.drainSeconds * 1000,
    async drain() {
      draining = true;
      if (config.drainSeconds > 0) log.info({ seconds: config.drainSeconds }, 'draining: not ready, still serving');
      await new Promise((r) => setTimeout(r, config.drainSeconds * 1000));
    },
  };
}
