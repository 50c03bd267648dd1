/** Entry of the price-feed process. */
import { runProcess } from '../../src/runtime/process-entry.js';
import { loadConfig } from '../../src/config.js';
import { startFeed } from './feed.js';

await runProcess('feed', loadConfig, startFeed);
