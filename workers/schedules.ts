/** Every job scheduler, upserted from this one place so intervals live in configuration only. */
import type { Queue } from 'bullmq';
import type { Config } from '../src/config.js';
import { LEAGUES } from '../src/model/index.js';
import { REFRESH_EVENTS } from './jobs/refresh-events.js';
import { REFRESH_FX } from './jobs/refresh-fx.js';
import { REFRESH_METRICS } from './jobs/refresh-metrics.js';
import { REFRESH_SPORTSBOOK } from './jobs/refresh-sportsbook.js';

export const REFRESH_QUEUE = 'pw-refresh';

// Retry a failed refresh a few times with backoff before the next scheduled run takes over.
const JOB_OPTS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 50 },
  removeOnFail: { count: 200 },
} as const;

export async function upsertSchedules(queue: Queue, config: Config): Promise<void> {
  const s = config.refreshSeconds;
  await queue.upsertJobScheduler('events', { every: s.events * 1000 }, { name: REFRESH_EVENTS, opts: JOB_OPTS });
  await queue.upsertJobScheduler('metrics', { every: s.metrics * 1000 }, { name: REFRESH_METRICS, opts: JOB_OPTS });
  await queue.upsertJobScheduler('fx', { every: s.fx * 1000 }, { name: REFRESH_FX, opts: JOB_OPTS });
  for (const league of LEAGUES) {
    await queue.upsertJobScheduler(`sportsbook-${league}`, { every: s.sportsbook * 1000 }, { name: REFRESH_SPORTSBOOK, data: { league }, opts: JOB_OPTS });
  }
}
