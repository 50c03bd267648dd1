/** Entry of the worker process. */
import { runProcess } from '../src/runtime/process-entry.js';
import { loadConfig } from '../src/config.js';
import { startWorker } from './worker.js';

await runProcess('worker', loadConfig, startWorker);
