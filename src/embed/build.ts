/**
 * `npm run build` step: writes the browser bundles (the <predictwire-widget> element and the
 * advertiser console's script) to dist/ for the compiled API, reports their sizes, and fails when
 * the element exceeds its 15 KB gzipped budget.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { bundle, CONSOLE, ELEMENT, gzippedSize, MAX_GZIPPED_BYTES } from './bundle.js';

const root = resolve(import.meta.dirname, '../..');
let over = false;
for (const b of [ELEMENT, CONSOLE]) {
  // dist/src/embed/*.js: next to the compiled bundle.js, where loadBundle looks.
  const target = resolve(root, 'dist/src/embed', relative(resolve(root, 'src/embed'), b.prebuilt));
  const bytes = await bundle(b.entry);
  const gz = gzippedSize(bytes);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  process.stdout.write(
    `${relative(root, target)}: ${bytes.length} bytes, ${gz} bytes gzipped${b === ELEMENT ? ` (budget ${MAX_GZIPPED_BYTES})` : ''}\n`,
  );
  if (b === ELEMENT && gz > MAX_GZIPPED_BYTES) over = true;
}
if (over) {
  process.stderr.write('embed.js is over its gzipped size budget\n');
  process.exit(1);
}
