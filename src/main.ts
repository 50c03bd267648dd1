/** Entry of the API process. */
import { runProcess } from './process-entry.js';
import { checkUws } from './http/uws-check.js';

// Before anything imports the native module statically: one clear line instead of a stack trace.
const unsupported = await checkUws();
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
const { startApi } = await import('./api.js');
await runProcess('api', startApi);
