/** Entry of the API process: the API itself, or with API_WORKERS above 1 the primary of that many workers. */
import { loadConfig } from './config.js';
import { runProcess } from './runtime/process-entry.js';
import { checkUws } from './transport/uws-check.js';
import { WORKER_INDEX_ENV } from './cluster/messages.js';

// Before anything imports the native module statically: one clear line instead of a stack trace.
const unsupported = await checkUws();
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
const workerIndex = Number(process.env[WORKER_INDEX_ENV] ?? 0);
if (workerIndex > 0) {
  const { runWorker } = await import('./cluster/worker.js');
  const { startApi } = await import('./api.js');
  await runWorker(workerIndex, async (config, log, link) => {
    const api = await startApi(config, log, link);
    return { api, beforeCollect: () => api.freshness.poll() };
  });
} else {
  await runProcess('api', loadConfig, async (config, log) => {
    if (config.apiWorkers > 1) return (await import('./cluster/primary.js')).startPrimary(config, log);
    return (await import('./api.js')).startApi(config, log);
  });
}
