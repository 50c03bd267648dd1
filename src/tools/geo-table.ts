/**
 * `npm run geo:table`: builds the reduced geo table from the installed IP database and caches it in
 * node_modules/.cache/predictwire/ (src/geo/location-db.ts), so that no process builds it at start.
 * The image runs it once (Dockerfile); a checkout needs it only to spare its first start about 10 s.
 */
import { loadLocationTable, locationSource } from '../geo/location-db.js';

const source = locationSource();
const { origin, unreadable, cacheError } = await loadLocationTable(source);
if (unreadable) process.stdout.write(`${source.cacheFile}: unreadable (${unreadable.message}), built again\n`);
process.stdout.write(`${source.cacheFile}: ${origin === 'cache' ? 'already cached' : origin}\n`);
if (cacheError) {
  process.stderr.write(`${cacheError.message}\n`);
  process.exitCode = 1;
}
