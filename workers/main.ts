/** Entry of the worker process. */
import { runProcess } from '../src/process-entry.js';
import { startWorker } from './worker.js';

await runProcess('worker', startWorker);
