/**
 * One API process, as a list of parts. Each part is assembled in the folder of what it starts and
 * registers its stop as it starts (src/runtime/lifecycle.ts), so they stop in reverse order: the live feeds'
 * pushes, the WebSocket hub, the server, then the buffers its requests filled, and Redis last.
 */
import { openAuth } from './auth/api-auth.js';
import { openCompliance } from './catalog/compliance/api-compliance.js';
import type { Config } from './config.js';
import { type ApiHttp, type ApiWorkerLink, startHttp } from './http/api-server.js';
import { Lifecycle } from './runtime/lifecycle.js';
import { RateLimits } from './limits/rate-limits.js';
import { openLiveEngine } from './live/api-live.js';
import type { Logger } from './runtime/log.js';
import { type Clock, systemClock } from './model/clock.js';
import { startServing } from './serve/api-serving.js';
import { followRedis, openApiRedis } from './store/api-redis.js';
import { openSnapshots } from './store/api-snapshots.js';
import { startTracking } from './tracking/api-tracking.js';

export interface ApiProcess extends ApiHttp {
  stop(): Promise<void>;
  /** Spills buffered clicks and impressions at once: a process forced to exit before its stop finished. */
  abandon(): void;
}

export async function startApi(
  config: Config,
  log: Logger,
  worker?: ApiWorkerLink,
  clock: Clock = systemClock,
): Promise<ApiProcess> {
  const life = new Lifecycle();
  const redis = await openApiRedis(life, config, log);
  const store = await openSnapshots(life, config, log, redis, clock);
  const compliance = openCompliance(life, config, log, redis);
  const auth = openAuth(life, config, log, redis);
  const limits = await life.start(
    () => new RateLimits(redis.requestRedis, config.limits, redis.breaker),
    (stopping) => stopping.stop(),
  );
  const tracking = await startTracking(life, config, log, redis, store.snapshots, clock);
  const engine = await openLiveEngine(life, config, log, redis);
  const serving = startServing(life, config, log, store, engine, tracking.ranking, clock);
  await followRedis(redis, store.cold, log, [
    () => store.snapshots.start(),
    () => compliance.start(),
    () => auth.verifiedKeys.start(),
    () => auth.postbackKeyring.start(),
    () => limits.start(redis.subscriber),
    () => tracking.ranking.start(),
    () => engine.start(),
    () => store.freshness.start(),
  ]);
  const parts = { redis, store, compliance, auth, limits, tracking, serving };
  const http = await startHttp(life, config, log, parts, worker, clock);
  return { ...http, stop: () => life.stop(), abandon: () => tracking.abandon() };
}
