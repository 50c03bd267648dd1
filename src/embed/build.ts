/**
 * `npm run build` step: writes the <predictwire-widget> bundle to dist/ for the compiled API, reports
 * its size, and fails when it exceeds the 15 KB gzipped budget.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { bundleElement, gzippedSize, MAX_GZIPPED_BYTES } from './bundle.js';

const root = resolve(import.meta.dirname, '../..');
// dist/src/embed/embed.js: next to the compiled bundle.js, where loadEmbedScript looks.
const target = resolve(root, 'dist/src/embed/embed.js');
const bytes = await bundleElement();
const gz = gzippedSize(bytes);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, bytes);
process.stdout.write(`${relative(root, target)}: ${bytes.length} bytes, ${gz} bytes gzipped (budget ${MAX_GZIPPED_BYTES})\n`);
if (gz > MAX_GZIPPED_BYTES) {
  process.stderr.write('embed.js is over its gzipped size budget\n');
  process.exit(1);
}
