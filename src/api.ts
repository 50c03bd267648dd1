/**
 * Assembles one API process from a config: Redis connections, snapshot cache, live engine, router,
 * HTTP and WebSocket server. Composition only: what each part does is in its own module, and every
 * part's stop is registered with the lifecycle (src/lifecycle.ts) as it is made. main.ts runs it;
 * tests and benchmarks start it the same way.
 */
import { AdvertiserKeys } from './auth/advertiser-keys.js';
import { PostbackKeyring } from './auth/postback-keyring.js';
import { PostbackSecrets } from './auth/postback-secrets.js';
import { VerifiedKeys } from './auth/verified-keys.js';
import { AdvertiserVault, vaultFile } from './auth/advertiser-vault.js';
import { ComplianceFollower } from './catalog/compliance/follower.js';
import { overdueRows } from './catalog/compliance/review.js';
import { complianceState, onComplianceChange } from './catalog/compliance/state.js';
import { OPERATORS } from './catalog/operators.js';
import type { Config } from './config.js';
import { LocationDb } from './geo/location-db.js';
import { GeoResolver } from './geo/resolver.js';
import type { Deps } from './http/deps.js';
import { createRouter } from './http/router.js';
import { staticRoute } from './http/routes/embed.js';
import { referenceRoutes } from './http/routes/reference.js';
import { webSocketRoute } from './http/ws-route.js';
import { demoPage } from './embed/demo-page.js';
import { CONSOLE, loadBundle, loadEmbedScript } from './embed/bundle.js';
import { consolePage } from './embed/console-page.js';
import { Lifecycle } from './lifecycle.js';
import { RateLimits } from './limits/rate-limits.js';
import { LiveEngine } from './live/engine.js';
import type { Logger } from './log.js';
import { startAdminServer } from './metrics/admin-server.js';
import { exposeCompliance } from './metrics/compliance.js';
import { exposeLiveEngine } from './metrics/live.js';
import { exposeEvictionPolicy, exposeRedisUp } from './metrics/redis.js';
import { exposeImpressionQueue } from './metrics/http.js';
import { exposeReadiness } from './metrics/readiness.js';
import { exposeDataDir } from './metrics/data-dir.js';
import { DataDirWatch } from './store/data-dir-watch.js';
import { EvictionPolicy } from './store/eviction-policy.js';
import { exposePayloadBuilds } from './metrics/payloads.js';
import { exposeSnapshotFreshness } from './metrics/snapshots.js';
import { liveMarketBuilder } from './serve/live-market-body.js';
import { LivePayloads } from './serve/live-payloads.js';
import { PayloadCache } from './serve/payload-cache.js';
import { Topics } from './serve/topics.js';
import { missingInRedis, seedFromDisk } from './store/cold-start.js';
import { EXPECTED_SNAPSHOTS } from './store/keys.js';
import { breakerOpen, redisBreaker } from './store/redis-breaker.js';
import { assessReadiness } from './http/routes/health.js';
import { connectRedis, connectRedisFailFast, readyWithin, whenReady } from './store/redis.js';
import { SnapshotCache } from './store/snapshot-cache.js';
import { SnapshotDisk, snapshotDir } from './store/snapshot-disk.js';
import { SnapshotFreshness } from './store/snapshot-freshness.js';
import { ClickBuffer } from './tracking/click-buffer.js';
import { postbackBuffer } from './tracking/postback-buffer.js';
import { ImpressionCounter } from './tracking/impression-counter.js';
import { RankingInputs } from './tracking/ranking-inputs.js';
import { spillDir } from './tracking/spill-file.js';
import { listenHttp } from './transport/server.js';
import type { WsHub } from './transport/ws-server.js';
import type { ConnectionLedger } from './ws/connection-ledger.js';
import { systemClock, type Clock } from './model/clock.js';

export interface ApiProcess {
  port: number;
  deps: Deps;
  /** Reports not-ready (/readyz 503) for DRAIN_SECONDS, still serving, so load balancers move away. */
  drain(): Promise<void>;
  drainMs: number;
  stop(): Promise<void>;
  /** Spills buffered clicks and impressions at once: a process forced to exit before its stop finished. */
  abandon(): void;
}

/** What an API worker (src/cluster/) shares with its primary; a single API process keeps both itself. */
export interface ApiWorkerLink {
  /** Per-address WebSocket slots, counted across every worker. */
  ledger: ConnectionLedger;
  /** WebSocket connections of the whole API, for /readyz. */
  wsConnections(): number | Promise<number>;
  /** Resolves when this worker may listen: once every worker of the start has its data. */
  mayListen(): Promise<void>;
}

/** How long a starting API waits for Redis before serving the disk copy of its snapshots instead. */
const COLD_START_WAIT_MS = 5_000;

const laterOf = (a: string | undefined, b: string) => (a !== undefined && a > b ? a : b);
const earlierOf = (a: string, b: string) => (a < b ? a : b);

export async function startApi(
  config: Config,
  log: Logger,
  worker?: ApiWorkerLink,
  clock: Clock = systemClock,
): Promise<ApiProcess> {
  // Stops run last registered first: feeds before the hub they push to, the server before the
  // buffers its requests fill, Redis last.
  const life = new Lifecycle();
  const redis = connectRedis(config.redis, 'api', log);
  const subscriber = connectRedis(config.redis, 'api-sub', log);
  // Ticks get a connection of their own so a burst of them never queues behind snapshot notices.
  const tickSubscriber = connectRedis(config.redis, 'api-ticks', log);
  // Venue quotes likewise, so they never queue behind ticks nor ticks behind them.
  const quoteSubscriber = connectRedis(config.redis, 'api-quotes', log);
  // Requests never wait for a reconnect: their commands fail fast and the route answers anyway.
  const requestRedis = connectRedisFailFast(config.redis, 'api-requests', log, config.redisCommandTimeoutMs);
  life.onStop(() => Promise.allSettled([redis.quit(), subscriber.quit(), requestRedis.quit()]));
  const redisAtStart = await readyWithin(requestRedis, COLD_START_WAIT_MS);

  const snapshots = new SnapshotCache(redis, subscriber, log);
  const freshness = new SnapshotFreshness(redis, log, {
    refreshSeconds: config.refreshSeconds,
    staleAfterIntervals: config.staleAfterIntervals,
  });
  // Redis away at start: serve the disk copy of the last snapshots, marked stale, rather than nothing.
  const disk = new SnapshotDisk(snapshotDir(config.dataDir), log);
  // Redis reachable but without snapshots (flushed, evicted): the same, for the ones it lacks.
  const missing = redisAtStart ? await missingInRedis(requestRedis) : EXPECTED_SNAPSHOTS;
  const cold =
    missing.length > 0 && seedFromDisk(snapshots, freshness, snapshotDir(config.dataDir), log, missing, redisAtStart);
  if (!redisAtStart && !cold) await whenReady(requestRedis);
  // A change stamped by a writer whose clock is ahead counts from now, as freshness ages it.
  snapshots.onChange((snap) =>
    disk.note(snap, laterOf(freshness.fetchedAt(snap), earlierOf(snap.changedAt, new Date(clock()).toISOString()))),
  );
  // Bodies carry the stale marker: rebuild them when a snapshot turns stale or fresh again.
  const payloads = new PayloadCache((kind, key) => freshness.staleMarker(kind, key));
  freshness.onChange((id) => payloads.invalidate(id.kind, id.key));
  const engine = new LiveEngine({
    redis,
    subscriber: tickSubscriber,
    quoteSubscriber,
    log,
    strikeMaxLagMs: config.live.strikeMaxLagMs,
  });
  const live = new LivePayloads(engine, liveMarketBuilder(config, engine), config.live.pushIntervalMs);

  // Broad widget: the location database is opened once; impressions are batched; ranking signals
  // are held in memory and reloaded when metrics change (below) and every 15 s for new clicks.
  const locations = await LocationDb.open();
  log.info({ builtAt: locations.builtAt.toISOString() }, 'geo database loaded');
  const geo = new GeoResolver(locations, config.trustProxy, config.defaultGeo, config.cdnGeo);
  const impressions = new ImpressionCounter(requestRedis, log, undefined, spillDir(config.dataDir));
  impressions.start();
  exposeImpressionQueue(impressions);
  const ranking = new RankingInputs(redis, log, {
    operatorIds: OPERATORS.map((op) => op.id),
    oiPeriodMs: config.ranking.oiPeriodMinutes * 60_000,
    ctrWindowDays: config.ranking.ctrWindowDays,
    refreshMs: 15_000,
    now: clock,
  });

  // One breaker for every command a request waits on: a frozen Redis costs the first few, then none.
  const breaker = redisBreaker((open) =>
    open
      ? log.warn('redis failing: request-path commands skipped (breaker open)')
      : log.info('redis answers again (breaker closed)'),
  );
  exposeRedisUp(requestRedis, breaker);
  // Compliance (rules and suspensions) follows Redis on every API process; with Redis away at start,
  // the disk copy's suspensions hold until it answers.
  const compliance = new ComplianceFollower(redis, subscriber, log, {
    operatorIds: OPERATORS.map((op) => op.id),
    dataDir: config.dataDir,
  });
  if (!redisAtStart) compliance.seedFromDisk();
  life.onStop(() => compliance.stop());
  const advertisers = new AdvertiserKeys(requestRedis, config.apiKeyPepper);
  const verifiedKeys = new VerifiedKeys(advertisers, subscriber, config.advertiserKeyCacheSeconds, log, {
    outageGraceSeconds: config.advertiserKeyOutageSeconds,
    // A key seen good from an address within a block's length is never refused by that address's block.
    fromAddressSeconds: config.limits.authBlockSeconds,
    breaker,
    vault: new AdvertiserVault(requestRedis, vaultFile(config.dataDir), log),
  });
  const limits = new RateLimits(requestRedis, config.limits, breaker);
  const clicks = new ClickBuffer(requestRedis, log, {
    max: config.clickBufferMax,
    maxPerVisitorDay: config.clickMaxPerVisitorDay,
    spillDir: spillDir(config.dataDir),
    attributionMs: config.clickAttributionMs,
  });
  clicks.start();
  // Where counts would be spilled at a stop: said to be unwritable or full before anything needs it.
  const dataDir = new DataDirWatch(spillDir(config.dataDir), log);
  await dataDir.start();
  exposeDataDir(dataDir);
  // A Redis that may evict our data is named at start, in /readyz and in a metric.
  const eviction = new EvictionPolicy(redis, log);
  eviction.start();
  exposeEvictionPolicy(eviction);
  life.onStop(() => {
    dataDir.stop();
    eviction.stop();
  });
  const postbackKeyring = new PostbackKeyring(new PostbackSecrets(requestRedis, config.apiKeyPepper), subscriber, log, {
    fromAddressSeconds: config.limits.authBlockSeconds,
  });
  const postbacks = postbackBuffer(requestRedis, log, spillDir(config.dataDir));
  postbacks.start();
  life.onStop(() => Promise.all([impressions.stop(), clicks.stop(), postbacks.stop(), limits.stop(), disk.flush()]));
  life.onStop(() => verifiedKeys.stop());
  life.onStop(() => postbackKeyring.stop());
  let draining = false;

  let hub: WsHub | undefined;
  const deps: Deps = {
    config,
    redis: requestRedis,
    breaker,
    snapshots,
    payloads,
    advertisers,
    verifiedKeys,
    limits,
    clicks,
    postbackKeyring,
    postbacks,
    draining: () => draining,
    live,
    geo,
    impressions,
    ranking,
    wsConnections: worker?.wsConnections ?? (() => hub?.connections() ?? 0),
    freshness,
    eviction,
    dataDir,
    compliance,
    log,
    now: clock,
  };

  const topics = new Topics(deps, live);
  topics.follow(snapshots, () => hub, log);
  const overdue = () => overdueRows(complianceState().rules, clock(), config.complianceReviewDays);
  const warnOverdue = () => {
    const rows = overdue();
    if (rows.length > 0)
      log.warn(
        { overdue: rows.length, reviewDays: config.complianceReviewDays, oldest: rows[0] },
        'compliance rule rows overdue for review: npm run compliance -- audit',
      );
  };
  // A suspension or new rules change what every body may show: none built before is served again,
  // and every WebSocket subscriber gets the new body now.
  const unfollow = onComplianceChange((_state, rulesChanged) => {
    payloads.invalidateAll();
    live.refresh();
    topics.pushEvents(hub);
    if (rulesChanged) warnOverdue();
  });
  life.onStop(unfollow);
  warnOverdue();
  exposeCompliance({ overdue: () => overdue().length, suspensions: () => complianceState().suspensions.length });
  snapshots.onChange((snap) => {
    if (snap.kind === 'metrics') void ranking.reload();
  });
  const follow = async () => {
    await snapshots.start();
    await compliance.start();
    await verifiedKeys.start();
    await postbackKeyring.start();
    await limits.start(subscriber);
    await ranking.start();
    await engine.start();
    await freshness.start();
  };
  // A cold start listens at once and follows Redis when it comes back (these commands wait for it).
  if (cold && !redisAtStart)
    void follow().then(
      () => log.info('redis reached: following live data again'),
      (err: unknown) => log.error({ err }, 'could not follow Redis after a cold start'),
    );
  else await follow();
  exposeSnapshotFreshness(freshness);
  exposeLiveEngine(engine, config.live.staleAfterMs);
  exposePayloadBuilds(() => [...payloads.buildsByKind, ['live-market', live.builds] as const]);
  exposeReadiness(() => assessReadiness(deps, requestRedis.status === 'ready' && !breakerOpen(breaker)).status);

  // The widget script and its demo page, the advertiser console: prepared once, served from memory.
  const startedAt = new Date(clock());
  // Both bundles at once: from the source tree each is an esbuild run.
  const [embedScript, consoleScript] = await Promise.all([loadEmbedScript(), loadBundle(CONSOLE)]);
  const advertiserConsole = consolePage(consoleScript.toString('utf8'));
  const pages = {
    '/v1/embed.js': staticRoute(embedScript, 'application/javascript; charset=utf-8', startedAt),
    // Off unless asked for in production (DEMO_ENABLED): then /demo is an unknown path (404).
    ...(config.demoEnabled && {
      '/demo': staticRoute(Buffer.from(demoPage(config.publicBaseUrl)), 'text/html; charset=utf-8', startedAt),
    }),
    '/advertiser/console': staticRoute(Buffer.from(advertiserConsole.html), 'text/html; charset=utf-8', startedAt, {
      headers: {
        'content-security-policy': advertiserConsole.csp,
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    }),
    // The API reference (the OpenAPI document as pages) and its renderer.
    ...(await referenceRoutes(startedAt)),
  };
  const { routes, fallback } = createRouter(deps, pages);
  // Workers listen together: a connection never lands on one still loading, nor on a port whose
  // group of listeners is still forming.
  await worker?.mayListen();
  const withWebSocket = webSocketRoute(deps, topics, worker?.ledger);
  const server = await listenHttp(config.host, config.port, routes, fallback, log, (app) => {
    hub = withWebSocket(app);
  });
  life.onStop(() => server.close());
  // Tell WebSocket clients we are going away before the server closes their sockets.
  life.onStop(() => hub?.closeAll());
  live.onPush(
    (topic, country, body) => hub?.push(topic, country, body),
    (topic, country) => hub?.hasSubscribers(topic, country) ?? false,
  );
  log.info({ port: server.port, host: config.host }, 'api listening');
  const admin = await startAdminServer(config.admin.host, config.admin.apiPort, log);
  // The feeds stop first: no more ticks, so nothing re-arms a push to a closing hub.
  life.onStop(() => ranking.stop());
  life.onStop(() => live.stop());
  life.onStop(() => Promise.allSettled([tickSubscriber.quit(), quoteSubscriber.quit()]));
  life.onStop(() => admin?.close());
  life.onStop(() => freshness.stop());
  life.onStop(() => engine.stop());

  return {
    port: server.port,
    deps,
    drainMs: config.drainSeconds * 1000,
    async drain() {
      draining = true;
      if (config.drainSeconds > 0) log.info({ seconds: config.drainSeconds }, 'draining: not ready, still serving');
      await new Promise((r) => setTimeout(r, config.drainSeconds * 1000));
    },
    stop: () => life.stop(),
    abandon() {
      clicks.abandon();
      impressions.abandon();
      postbacks.abandon();
    },
  };
}
