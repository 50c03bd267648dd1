/**
 * `npm run geo:table`: builds the reduced geo table from the installed IP database and caches it in
 * node_modules/.cache/predictwire/ (src/geo/location-db.ts), so that no process builds it at start.
 * The image runs it once (Dockerfile); a checkout needs it only to spare its first start a few seconds.
 */
import { ensureLocationTable, locationSource } from '../geo/location-db.js';

const source = locationSource();
const origin = await ensureLocationTable(source);
process.stdout.write(`${source.cacheFile}: ${origin === 'cache' ? 'already cached' : origin}\n`);
if (origin === 'built, not cached') process.exitCode = 1;
