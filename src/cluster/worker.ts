/**
 * Entry of one API worker, forked by the primary (src/cluster/primary.ts): the API exactly as a
 * single process runs it, except that WebSocket slots and counts are the primary's and the admin
 * port is the primary's (the primary sets ADMIN_PORT=0 here and collects our metrics over IPC).
 */
import { startApi } from '../api.js';
import { ensureDefaultMetrics } from '../metrics/admin-server.js';
import { runProcess } from '../process-entry.js';
import { withTimeout } from '../with-timeout.js';
import { linkToPrimary } from './worker-link.js';

/** Runs the API as worker `index` (from 1; in every log line as `worker`). */
export async function runWorker(index: number): Promise<void> {
  await runProcess(
    'api',
    async (config, log) => {
      const link = linkToPrimary(config.apiWorkers);
      ensureDefaultMetrics();
      const api = await startApi(config, log, {
        ledger: link.ledger,
        wsConnections: link.wsConnections,
        mayListen: link.mayListen,
      });
      // Every worker polls its snapshot meta in the background; the worker that answered /readyz
      // polled just now. Polling before a scrape keeps /metrics in step with that answer.
      link.beforeCollect(() => withTimeout(api.deps.freshness.poll(), 1_000));
      link.listening();
      return api;
    },
    { worker: index },
  );
}
