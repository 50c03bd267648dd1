/**
 * Liveness and readiness (docs/operations.md, "Health and readiness").
 *
 * `/readyz` answers "can this instance serve?": every snapshot it needs loaded in memory, not
 * draining. Redis unreachable or stale data is `degraded`, still 200, with `missing` naming what is
 * lacking: the last good data is served (flagged), and a Redis blip or one stale upstream must not
 * pull every instance out of its load balancer at once, since every instance shares them.
 */
import type { z } from 'zod';
import { priceFeedStaleness } from '../../live/metrics.js';
import { dataDirProblem } from '../../store/data-dir-watch.js';
import type { SnapshotFreshness } from '../../store/snapshot-freshness.js';
import type { SnapshotCache } from '../../store/snapshot-cache.js';
import type { EvictionPolicy } from '../../store/eviction-policy.js';
import type { DataDirWatch } from '../../store/data-dir-watch.js';
import type { LivePayloads } from '../../serve/live-payloads.js';
import { json } from '../../transport/respond.js';
import { route } from '../route.js';
import { operation, headers } from '../openapi-parts.js';
import { ref } from '../openapi-schemas.js';
import type { DrainingBody, HealthBody, ReadyBody } from '../operation-bodies.js';

const OK = { status: 'ok' } satisfies z.input<typeof HealthBody>;

// Health checks are for load balancers and monitors: no CORS.
export const health = route({
  path: '/healthz',
  reads: [],
  openapi: () =>
    operation('getHealth', {
      tag: 'operations',
      summary: 'The process is alive',
      description: 'Answers whenever the process runs; it calls nothing, so it answers while Redis is away.',
      payload: 'Health',
      cors: false,
    }),
  handler: () => () => json(200, OK),
});

/** What readiness depends on besides Redis. */
export interface ReadinessDeps {
  freshness: Pick<SnapshotFreshness, 'states'>;
  snapshots: Pick<SnapshotCache, 'get'>;
  live: Pick<LivePayloads, 'engine'>;
  config: { live: { staleAfterMs: number } };
  now(): number;
  /** True from SIGTERM on: /readyz answers 503 so load balancers stop sending before we close. */
  draining(): boolean;
  /** Redis's maxmemory-policy, watched (/readyz names an unsafe one). */
  eviction: Pick<EvictionPolicy, 'unsafe' | 'policy'>;
  /** Whether the data folder can take spilled counts (/readyz says when not). */
  dataDir: Pick<DataDirWatch, 'state'>;
}

/** What /readyz reads besides: Redis asked, the background reads brought up to date, the WebSocket count. */
export interface ReadyDeps extends ReadinessDeps {
  /** Pings Redis through the breaker, within a second; rejects when it does not answer. */
  pingRedis(): Promise<unknown>;
  /** Re-reads the snapshots' meta and the eviction policy (the background reads may be behind). */
  refresh(): Promise<unknown>;
  /** Open WebSocket connections (of every API worker). */
  wsConnections(): number | Promise<number>;
}

/**
 * The readiness of this instance with Redis answering or not (`redisOk`): the status, what is
 * missing, and each snapshot's state. Shared by `/readyz` (after a ping) and the
 * `predictwire_readiness` gauge (from the connection's state, without a ping).
 */
export function assessReadiness(deps: ReadinessDeps, redisOk: boolean) {
  const snapshots = deps.freshness.states().map((s) => {
    const loaded = deps.snapshots.get(s.kind, s.key);
    const meta = s.meta;
    return {
      kind: s.kind,
      key: s.key,
      loaded: !!loaded,
      version: loaded?.version ?? null,
      changed_at: loaded?.changedAt ?? null,
      fetched_at: s.fetchedAt ?? null,
      age_seconds: s.ageSeconds === undefined ? null : Math.round(s.ageSeconds),
      stale: s.stale,
      /** Seconds without a successful fetch after which this snapshot counts as stale. */
      stale_after_seconds: s.staleAfterSeconds,
      failures: meta?.failures ?? 0,
      // The failing upstream names itself in the message ("kalshi: HTTP 503 from ..."); only while failing.
      ...(meta?.failures && meta.lastError
        ? {
            last_error: meta.lastError,
            last_error_at: meta.lastErrorAt ?? null,
            failure_reason: meta.lastReason ?? null,
          }
        : {}),
    };
  });
  const priceFeed = priceFeedStaleness(deps.live.engine, deps.config.live.staleAfterMs, deps.now());
  const draining = deps.draining();
  const staleAssets = Object.keys(priceFeed).filter((a) => priceFeed[a]);
  const dataDir = dataDirProblem(deps.dataDir.state);
  const missing = [
    ...(draining ? ['draining'] : []),
    ...snapshots.filter((s) => !s.loaded).map((s) => `snapshot ${s.kind}/${s.key} not loaded`),
    ...(redisOk ? [] : ['redis']),
    ...snapshots.filter((s) => s.loaded && s.stale).map((s) => `snapshot ${s.kind}/${s.key} stale`),
    ...staleAssets.map((a) => `price feed ${a}`),
    ...(deps.eviction.unsafe ? [`redis maxmemory-policy ${deps.eviction.unsafe}`] : []),
    ...(dataDir ? [dataDir] : []),
  ];
  const ready = !draining && snapshots.every((s) => s.loaded);
  const status: z.infer<typeof ReadyBody>['status'] = !ready ? 'not_ready' : missing.length > 0 ? 'degraded' : 'ready';
  return { status, missing, draining, snapshots, staleAssets };
}

const DRAINING = { status: 'draining' } satisfies z.input<typeof DrainingBody>;

/**
 * /readyz: not ready while draining; limited per address in this instance's memory, except for
 * our own proxies and load balancers (TRUST_PROXY) asking for themselves: they decide rotation.
 */
export const ready = route({
  path: '/readyz',
  reads: [],
  limitedPerAddress: true,
  openapi: () =>
    operation('getReadiness', {
      tag: 'operations',
      summary: 'This instance can serve: ready, degraded (Redis unreachable or stale data, still 200) or not',
      description:
        "For load balancers: 503 only while a needed snapshot is not loaded or the process drains. Limited per client address in this instance's memory, except for TRUST_PROXY addresses asking for themselves.",
      payload: 'Readiness',
      problems: [429],
      cors: false,
      responses: {
        '503': {
          description: 'Not ready (Readiness with status not_ready), or draining before shutdown.',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'application/json': { schema: { oneOf: [ref('Readiness'), ref('Draining')] } } },
        },
      },
    }),
  handler: (deps: ReadyDeps) => () => (deps.draining() ? json(503, DRAINING) : readiness(deps)),
});

/** The readiness answer, Redis asked. */
async function readiness(deps: ReadyDeps) {
  let redisOk = true;
  try {
    await deps.pingRedis();
  } catch {
    redisOk = false;
  }
  // Fresh meta and eviction policy for the answer (the background reads may be behind); cheap, and never on a widget's path.
  if (redisOk) await deps.refresh().catch(() => {});
  const { status, missing, draining, snapshots, staleAssets } = assessReadiness(deps, redisOk);
  const live = deps.live.engine.stats();
  const body: z.input<typeof ReadyBody> = {
    status,
    missing,
    redis: redisOk ? 'ok' : 'unreachable',
    redis_eviction_policy: deps.eviction.policy ?? null,
    data_dir: { writable: deps.dataDir.state?.writable ?? true, free_bytes: deps.dataDir.state?.freeBytes ?? null },
    draining,
    snapshots,
    price_feed: { stale_assets: staleAssets, last_tick_at: live.lastTickAt },
    live: {
      ticks_applied: live.ticksApplied,
      bad_ticks: live.badTicks,
      last_tick_at: live.lastTickAt,
      quotes_held: live.quotesHeld,
      bad_quotes: live.badQuotes,
    },
    websocket: { connections: await deps.wsConnections() },
  };
  return json(status === 'not_ready' ? 503 : 200, body);
}
