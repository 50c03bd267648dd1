/**
 * Every job scheduler, upserted from this one place so intervals live in configuration only. The
 * schedules live in Redis, so losing Redis's data (FLUSHALL, an eviction, a restart without
 * persistence) loses them: `keepSchedules` puts back any that went missing, after every reconnect
 * and every SCHEDULE_CHECK_MS, so refreshes resume within that plus one refresh interval.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../src/config.js';
import type { Logger } from '../src/runtime/log.js';
import { schedulesRecreated } from '../src/metrics/queue.js';
import { LEAGUES } from '../src/model/index.js';
import { REFRESH_EVENTS } from './jobs/refresh-events.js';
import { REFRESH_FX } from './jobs/refresh-fx.js';
import { REFRESH_METRICS } from './jobs/refresh-metrics.js';
import { REFRESH_SPORTSBOOK } from './jobs/refresh-sportsbook.js';

export const REFRESH_QUEUE = 'pw-refresh';

/** How often the worker checks that every schedule is still in Redis (docs/operations.md). */
export const SCHEDULE_CHECK_MS = 5_000;

// Retry a failed refresh a few times with backoff before the next scheduled run takes over.
const JOB_OPTS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 50 },
  removeOnFail: { count: 200 },
} as const;

/** One scheduler: its id, its job's name and data, and its interval in ms. */
export interface Schedule {
  id: string;
  name: string;
  data?: Record<string, unknown>;
  everyMs: number;
}

/** The schedulers `config` asks for. */
export function schedules(config: Config): Schedule[] {
  const s = config.refreshSeconds;
  return [
    { id: 'events', name: REFRESH_EVENTS, everyMs: s.events * 1000 },
    { id: 'metrics', name: REFRESH_METRICS, everyMs: s.metrics * 1000 },
    { id: 'fx', name: REFRESH_FX, everyMs: s.fx * 1000 },
    ...LEAGUES.map((league) => ({
      id: `sportsbook-${league}`,
      name: REFRESH_SPORTSBOOK,
      data: { league },
      everyMs: s.sportsbook * 1000,
    })),
  ];
}

const upsert = (queue: Queue, s: Schedule) =>
  queue.upsertJobScheduler(s.id, { every: s.everyMs }, { name: s.name, data: s.data, opts: JOB_OPTS });

export async function upsertSchedules(queue: Queue, config: Config): Promise<void> {
  for (const s of schedules(config)) await upsert(queue, s);
}

/** Upserts the schedulers of `config` that Redis no longer has; returns their ids. */
export async function restoreMissingSchedules(queue: Queue, config: Config): Promise<string[]> {
  const present = new Set((await queue.getJobSchedulers()).map((s) => s.key));
  const missing = schedules(config).filter((s) => !present.has(s.id));
  for (const s of missing) await upsert(queue, s);
  return missing.map((s) => s.id);
}

/**
 * Puts back missing schedulers after every reconnect of `connection` (the queue's) and every
 * SCHEDULE_CHECK_MS, logging and counting each; returns a function that stops the checks.
 */
export function keepSchedules(queue: Queue, connection: Redis, config: Config, log: Logger): () => void {
  let checking = false;
  const check = async () => {
    if (checking || connection.status !== 'ready') return;
    checking = true;
    try {
      const restored = await restoreMissingSchedules(queue, config);
      if (restored.length === 0) return;
      schedulesRecreated.inc(restored.length);
      log.warn(
        { schedules: restored },
        'job schedules missing from Redis (its data was flushed, evicted or lost in a restart): re-created',
      );
    } catch (err) {
      // Redis away or failing: the next check, or the reconnect, tries again.
      log.debug({ err: (err as Error).message }, 'job schedules not checked');
    } finally {
      checking = false;
    }
  };
  const onReady = () => void check();
  connection.on('ready', onReady);
  const timer = setInterval(() => void check(), SCHEDULE_CHECK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    connection.off('ready', onReady);
  };
}
