/**
 * Assembles the worker process: one BullMQ queue with its schedulers, one Worker dispatching jobs
 * by name. main.ts runs it; tests start it the same way.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Config } from '../src/config.js';
import type { Logger } from '../src/log.js';
import { BULL_PREFIX } from '../src/store/keys.js';
import { connectRedis } from '../src/store/redis.js';
import { createSources } from '../src/sources/registry.js';
import { redisLeagueMemory } from '../src/sources/combined/redis-league-memory.js';
import { redisQuotaStore } from '../src/sources/http/redis-quota-store.js';
import { REFRESH_EVENTS, refreshEvents } from './jobs/refresh-events.js';
import { REFRESH_FX, refreshFx } from './jobs/refresh-fx.js';
import { REFRESH_METRICS, refreshMetrics } from './jobs/refresh-metrics.js';
import { REFRESH_SPORTSBOOK, refreshSportsbook } from './jobs/refresh-sportsbook.js';
import { DEFAULT_QUALITY } from '../src/sources/quality/options.js';
import type { RefreshDeps } from './refresh.js';
import { REFRESH_QUEUE, upsertSchedules } from './schedules.js';
import { startAdminServer } from '../src/metrics/admin-server.js';
import { exposeQueue } from '../src/metrics/queue.js';
import { throttledWarn } from './throttled-warn.js';

export interface WorkerProcess {
  stop(): Promise<void>;
}

export async function startWorker(config: Config, log: Logger): Promise<WorkerProcess> {
  // BullMQ needs maxRetriesPerRequest: null on its connections (blocking commands).
  const bullOpts = { maxRetriesPerRequest: null };
  const redis = connectRedis(config.redis, 'worker', log);
  const sources = createSources(config, { log, leagueMemory: redisLeagueMemory(redis), oddsQuotaStore: redisQuotaStore(redis, 'odds-api') });
  const queueConn = connectRedis(config.redis, 'worker-queue', log, bullOpts);
  const workerConn = connectRedis(config.redis, 'worker-bull', log, bullOpts);

  const deps: RefreshDeps = { redis, log, now: () => new Date(), quality: { ...DEFAULT_QUALITY, maxLossShare: config.upstream.qualityMaxLossShare } };
  const jobs: Record<string, (data: unknown) => Promise<unknown>> = {
    [REFRESH_EVENTS]: refreshEvents(deps, sources.events),
    [REFRESH_SPORTSBOOK]: refreshSportsbook(deps, sources.sportsbook),
    // Acceleration compares two periods back from the newest sample: keep three.
    [REFRESH_METRICS]: refreshMetrics(deps, sources.metrics, 3 * config.ranking.oiPeriodMinutes * 60_000),
    [REFRESH_FX]: refreshFx(deps, sources.fx),
  };

  const queue = new Queue(REFRESH_QUEUE, { connection: queueConn, prefix: BULL_PREFIX });
  // Without a listener BullMQ's errors (Redis away) print as multi-line stacks outside the JSON log.
  queue.on('error', throttledWarn(log, 'queue error'));
  await upsertSchedules(queue, config);
  const worker = new Worker(
    REFRESH_QUEUE,
    async (job: Job) => {
      const run = jobs[job.name];
      if (!run) throw new Error(`unknown job ${job.name}`);
      return run(job.data);
    },
    { connection: workerConn, prefix: BULL_PREFIX, concurrency: 4 },
  );
  worker.on('error', throttledWarn(log, 'worker error'));
  log.info({ sources: config.sources, refreshSeconds: config.refreshSeconds }, 'worker started');
  const unexpose = exposeQueue(queue);
  const admin = await startAdminServer(config.admin.host, config.admin.workerPort, log, () => ({ ok: worker.isRunning() }));

  return {
    async stop() {
      unexpose();
      await admin?.close();
      await worker.close();
      await queue.close();
      await Promise.allSettled([redis.quit(), queueConn.quit(), workerConn.quit()]);
    },
  };
}
