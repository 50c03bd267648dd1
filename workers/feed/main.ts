/** Entry of the price-feed process. */
import { runProcess } from '../../src/process-entry.js';
import { startFeed } from './feed.js';

await runProcess('feed', startFeed);
