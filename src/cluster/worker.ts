/**
 * Entry of one API worker, forked by the primary (src/cluster/primary.ts): the API exactly as a
 * single process runs it, except that WebSocket slots and counts are the primary's and the admin
 * port is the primary's (the primary sets ADMIN_PORT=0 here and collects our metrics over IPC).
 * main.ts hands in how to start the API, so this layer does not import the one above it.
 */
import { type Config, loadConfig } from '../config.js';
import type { Logger } from '../runtime/log.js';
import { ensureDefaultMetrics } from '../metrics/admin-server.js';
import { type RunningProcess, runProcess } from '../runtime/process-entry.js';
import { withTimeout } from '../runtime/with-timeout.js';
import { linkToPrimary, type WorkerLink } from './worker-link.js';

/** An API started on a worker link, and what to refresh before the primary collects its metrics. */
export interface WorkerApi {
  api: RunningProcess;
  beforeCollect(): Promise<unknown>;
}

/** Runs the API as worker `index` (from 1; in every log line as `worker`). */
export async function runWorker(
  index: number,
  startApi: (config: Config, log: Logger, link: WorkerLink) => Promise<WorkerApi>,
): Promise<void> {
  await runProcess(
    'api',
    loadConfig,
    async (config, log) => {
      const link = linkToPrimary(config.apiWorkers);
      ensureDefaultMetrics();
      const { api, beforeCollect } = await startApi(config, log, link);
      // Every worker polls its snapshot meta in the background; the worker that answered /readyz
      // polled just now. Polling before a scrape keeps /metrics in step with that answer.
      link.beforeCollect(() => withTimeout(beforeCollect(), 1_000));
      link.listening();
      return api;
    },
    { worker: index },
  );
}
