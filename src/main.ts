/** Entry of the API process. */
import { startApi } from './api.js';
import { runProcess } from './process-entry.js';

await runProcess('api', startApi);
