/**
 * vitest globalSetup: compiles the service once per test run, so the processes tests start run on
 * plain `node` instead of compiling TypeScript through tsx at every start (and the API loads the
 * browser bundles instead of running esbuild at every start).
 *
 * Every .ts file of src/ and workers/, and the test clock's preload, is transformed file by file
 * with esbuild (what tsx does in memory) into a folder of this run, `.test-build/<pid>/`, keeping
 * the source layout: relative imports, JSON imports and `import.meta` paths resolve as they do
 * from the source tree. Each process entry is then bundled over its copy (entry-bundles.ts), so a
 * process start reads one file. The browser bundles are written where the compiled API looks for them
 * (beside src/embed/bundle.js, as `npm run build` does for dist/), and the geo table is cached if it
 * is not yet (src/geo/location-db.ts). Built at the start of every
 * run from the working tree, it is never stale; the folder goes when the run ends.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundle, CONSOLE, ELEMENT } from '../../src/embed/bundle.js';
import { ensureLocationTable } from '../../src/geo/location-db.js';
import { bundleEntries } from './entry-bundles.js';
import { filesUnder } from './files.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder this run's compiled service is in (test/support/test-build.ts). */
    builtRoot: string;
  }
}

const root = resolve(import.meta.dirname, '../..');
const BUILDS = join(root, '.test-build');
/** Browser code: bundled, never run by node. */
const BROWSER = [dirname(ELEMENT.entry), dirname(CONSOLE.entry)];

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export default async function setup(project: TestProject): Promise<() => void> {
  // Runs killed before their teardown leave their folder behind.
  if (existsSync(BUILDS))
    for (const name of readdirSync(BUILDS))
      if (!running(Number(name))) rmSync(join(BUILDS, name), { recursive: true, force: true });
  const out = join(BUILDS, String(process.pid));
  const entryPoints = [
    ...filesUnder(join(root, 'src'), '.ts').filter((f) => !BROWSER.some((dir) => f.startsWith(`${dir}/`))),
    ...filesUnder(join(root, 'workers'), '.ts'),
    join(root, 'test/support/test-clock.ts'),
  ];
  const [, element, consoleBundle] = await Promise.all([
    build({
      entryPoints: [...entryPoints, ...filesUnder(join(root, 'src'), '.json')],
      outdir: out,
      outbase: root,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      // JSON files are copied as they are: the compiled code imports them `with { type: 'json' }`.
      loader: { '.json': 'copy' },
      logLevel: 'warning',
    }).then(() => bundleEntries(root, out)),
    bundle(ELEMENT.entry),
    bundle(CONSOLE.entry),
    // The geo table every API process reads: built once here on a fresh checkout, not by each.
    ensureLocationTable(),
  ]);
  for (const [b, bytes] of [
    [ELEMENT, element],
    [CONSOLE, consoleBundle],
  ] as const) {
    const target = join(out, relative(root, b.prebuilt));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  project.provide('builtRoot', out);
  return () => rmSync(out, { recursive: true, force: true });
}
