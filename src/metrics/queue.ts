/** BullMQ job counts per state, read from Redis at scrape time, and schedulers re-created (worker process). */
import type { Queue } from 'bullmq';
import { Counter, Gauge } from 'prom-client';
import { withTimeout } from '../runtime/with-timeout.js';

const STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children'] as const;
const queues = new Set<Queue>();

new Gauge({
  name: 'predictwire_queue_jobs',
  help: 'BullMQ jobs per queue and state',
  labelNames: ['queue', 'state'],
  async collect() {
    this.reset();
    await Promise.all(
      [...queues].map(async (queue) => {
        // While Redis is away the series disappear rather than report stale counts.
        const counts = await withTimeout(queue.getJobCounts(...STATES), 1_000).catch(() => undefined);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ queue: queue.name, state }, n);
      }),
    );
  },
});

/** Reports `queue`'s job counts on /metrics until it is closed. */
export function exposeQueue(queue: Queue): () => void {
  queues.add(queue);
  return () => queues.delete(queue);
}

/** Job schedulers the worker found missing from Redis and put back (workers/schedules.ts). */
export const schedulesRecreated = new Counter({
  name: 'predictwire_job_schedules_recreated_total',
  help: 'BullMQ job schedulers the worker found missing from Redis (its data flushed, evicted or lost) and re-created',
});
