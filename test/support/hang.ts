/** A process that starts its watchdog, then gets stuck in an endless loop (test/integration/watchdog.test.ts). */
import { startWatchdog } from '../../src/runtime/watchdog.js';

startWatchdog('hang-test', Number(process.argv[2]));
process.stdout.write('looping\n');
setTimeout(() => {
  for (;;);
}, 10);
