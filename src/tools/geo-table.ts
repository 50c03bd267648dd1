/**
 * `npm run geo:table`: builds the reduced geo table from the installed IP database and caches it in
 * node_modules/.cache/predictwire/ (src/geo/location-db.ts), so that no process builds it at start.
 * The image runs it once (Dockerfile); a checkout needs it only to spare its first start about 6 s.
 */
import { ensureLocationTable, locationSource } from '../geo/location-db.js';

const source = locationSource();
// A whole cached table is not read at all: its header and length say it is there.
const loaded = await ensureLocationTable(source);
if (loaded?.unreadable)
  process.stdout.write(`${source.cacheFile}: unreadable (${loaded.unreadable.message}), built again\n`);
process.stdout.write(
  `${source.cacheFile}: ${!loaded || loaded.origin === 'cache' ? 'already cached' : loaded.origin}\n`,
);
if (loaded?.cacheError) {
  process.stderr.write(`${loaded.cacheError.message}\n`);
  process.exitCode = 1;
}
