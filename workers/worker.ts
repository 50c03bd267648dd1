/**
 * Assembles the worker process: one BullMQ queue with its schedulers (kept in Redis, put back when
 * Redis loses them), one Worker dispatching jobs by name, and a `/healthz` that fails when a
 * schedule's jobs stop finishing (refresh-watch.ts). main.ts runs it; tests start it the same way.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Config } from '../src/config.js';
import type { Logger } from '../src/runtime/log.js';
import { BULL_PREFIX } from '../src/store/keys.js';
import { closeRedis, connectRedis } from '../src/store/redis.js';
import { createSources } from '../src/sources/registry.js';
import { redisLeagueMemory } from '../src/sources/combined/redis-league-memory.js';
import { redisQuotaStore } from '../src/sources/http/redis-quota-store.js';
import { REFRESH_EVENTS, refreshEvents } from './jobs/refresh-events.js';
import { REFRESH_FX, refreshFx } from './jobs/refresh-fx.js';
import { REFRESH_METRICS, refreshMetrics } from './jobs/refresh-metrics.js';
import { REFRESH_SPORTSBOOK, refreshSportsbook } from './jobs/refresh-sportsbook.js';
import { DEFAULT_QUALITY } from '../src/sources/quality/options.js';
import type { RefreshDeps } from './refresh.js';
import { keepSchedules, REFRESH_QUEUE, schedules, upsertSchedules } from './schedules.js';
import { RefreshWatch } from './refresh-watch.js';
import { startAdminServer } from '../src/metrics/admin-server.js';
import { exposeQueue } from '../src/metrics/queue.js';
import { exposeEvictionPolicy } from '../src/metrics/redis.js';
import { EvictionPolicy } from '../src/store/eviction-policy.js';
import { throttledWarn } from './throttled-warn.js';
import { systemClock } from '../src/model/clock.js';
import { Lifecycle } from '../src/runtime/lifecycle.js';

export interface WorkerProcess {
  stop(): Promise<void>;
}

export async function startWorker(config: Config, log: Logger): Promise<WorkerProcess> {
  // BullMQ needs maxRetriesPerRequest: null on its connections (blocking commands).
  const bullOpts = { maxRetriesPerRequest: null };
  // Each part stops where it starts, in reverse order: Redis last.
  const life = new Lifecycle();
  const { redis, queueConn, workerConn } = await life.start(
    () => ({
      redis: connectRedis(config.redis, 'worker', log),
      queueConn: connectRedis(config.redis, 'worker-queue', log, bullOpts),
      workerConn: connectRedis(config.redis, 'worker-bull', log, bullOpts),
    }),
    (c) => closeRedis(c.redis, c.queueConn, c.workerConn),
  );
  const sources = createSources(config, {
    log,
    leagueMemory: redisLeagueMemory(redis),
    oddsQuotaStore: redisQuotaStore(redis, 'odds-api'),
  });

  const deps: RefreshDeps = {
    redis,
    log,
    now: systemClock,
    quality: { ...DEFAULT_QUALITY, maxLossShare: config.upstream.qualityMaxLossShare },
  };
  const jobs: Record<string, (data: unknown) => Promise<unknown>> = {
    [REFRESH_EVENTS]: refreshEvents(deps, sources.events),
    [REFRESH_SPORTSBOOK]: refreshSportsbook(deps, sources.sportsbook),
    // Acceleration compares two periods back from the newest sample: keep three.
    [REFRESH_METRICS]: refreshMetrics(deps, sources.metrics, 3 * config.ranking.oiPeriodMinutes * 60_000),
    [REFRESH_FX]: refreshFx(deps, sources.fx),
  };

  const queue = await life.start(
    () => new Queue(REFRESH_QUEUE, { connection: queueConn, prefix: BULL_PREFIX }),
    (q) => q.close(),
  );
  // Without a listener BullMQ's errors (Redis away) print as multi-line stacks outside the JSON log.
  queue.on('error', throttledWarn(log, 'queue error'));
  await upsertSchedules(queue, config);
  const worker = await life.start(
    () =>
      new Worker(
        REFRESH_QUEUE,
        async (job: Job) => {
          const run = jobs[job.name];
          if (!run) throw new Error(`unknown job ${job.name}`);
          return run(job.data);
        },
        { connection: workerConn, prefix: BULL_PREFIX, concurrency: 4 },
      ),
    (w) => w.close(),
  );
  worker.on('error', throttledWarn(log, 'worker error'));
  life.onStop(keepSchedules(queue, queueConn, config, log));
  // Schedules and snapshots are lost to eviction as to a flush: an unsafe policy is named at start.
  const eviction = await life.start(
    () => {
      const policy = new EvictionPolicy(redis, log);
      policy.start();
      return policy;
    },
    (policy) => policy.stop(),
  );
  exposeEvictionPolicy(eviction);
  // A scheduler's jobs carry its id; each finished run (completed or failed) counts as a sign of life.
  const watch = new RefreshWatch(schedules(config), config.staleAfterIntervals, systemClock);
  const finished = (job: Job | undefined) => job && watch.finished(job.repeatJobKey ?? job.name);
  worker.on('completed', finished);
  worker.on('failed', finished);
  // Back from an outage: the time it took does not count against the schedules.
  queueConn.on('ready', () => watch.restart());
  log.info({ sources: config.sources, refreshSeconds: config.refreshSeconds }, 'worker started');
  life.onStop(exposeQueue(queue));
  let overdueBefore = false;
  const health = () => {
    // While Redis is away nothing can refresh, and a restart would not help.
    const refreshes = queueConn.status === 'ready' ? watch.health() : { ok: true, overdue: {} };
    if (!refreshes.ok && !overdueBefore)
      log.error(
        { overdue_seconds: refreshes.overdue },
        'refreshes stopped finishing: /healthz fails so that a supervisor restarts this worker',
      );
    overdueBefore = !refreshes.ok;
    return { ok: worker.isRunning() && refreshes.ok, ...(refreshes.ok ? {} : { overdue_seconds: refreshes.overdue }) };
  };
  await life.start(
    () => startAdminServer(config.admin.host, config.admin.workerPort, log, health),
    (admin) => admin?.close(),
  );
  return { stop: () => life.stop() };
}
