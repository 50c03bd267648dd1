/**
 * One file per process entry for the test run's compiled service: each entry the tests start (the
 * API, the worker, the feed, the launcher and the CLIs) is bundled with esbuild, its packages
 * included, over its file-by-file copy. A process then reads and compiles one file instead of some
 * 400 modules: an API start costs 1.2 CPU-s instead of 1.65, a worker's first seconds 1.0 instead
 * of 1.5, a CLI run 0.4 instead of 0.6 (this machine, `/proc`), and the suite starts some 200.
 *
 * Every module keeps the location it has unbundled, so code that finds files beside itself finds
 * the same ones:
 * - the service's `import.meta.url`, `.dirname` and `.filename` name its file-by-file copy;
 * - a package's `__dirname`, `__filename` and `import.meta.url` name its file in node_modules.
 *
 * The clock module stays its own file, imported by absolute URL: the test clock's preload
 * (test/support/test-clock.ts) sets that one instance, which a bundle's private copy would not see.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** What the tests start as processes (test/support/processes.ts), relative to the repository. */
export const PROCESS_ENTRIES = [
  'src/main.ts',
  'workers/main.ts',
  'workers/feed/main.ts',
  'src/tools/embedded.ts',
  'src/tools/advertiser.ts',
  'src/tools/compliance.ts',
  'src/tools/postback.ts',
  'src/tools/match-markets.ts',
  'src/tools/geo-table.ts',
];

/** Loaded from node_modules at run time: a native addon, and a development-only dynamic import. */
const LEFT_OUT = ['uWebSockets.js', 'pino-pretty'];

const CLOCK = 'src/model/clock.ts';

const literal = (value: string) => JSON.stringify(value);

/** `source` with `import.meta`'s location fields written as the literals of `file`. */
function withImportMeta(source: string, file: string): string {
  return source
    .replaceAll('import.meta.url', literal(pathToFileURL(file).href))
    .replaceAll('import.meta.dirname', literal(dirname(file)))
    .replaceAll('import.meta.filename', literal(file));
}

/** A package file's own `__dirname` and `__filename`, declared unless it declares them itself. */
function withCommonJsLocation(source: string, file: string): string {
  const declare = (name: string, value: string) =>
    source.includes(name) && !new RegExp(`\\b(?:const|let|var)\\s+${name}\\b`).test(source)
      ? `var ${name} = ${literal(value)};`
      : '';
  return `${declare('__dirname', dirname(file))}${declare('__filename', file)}${withImportMeta(source, file)}`;
}

function keepLocations(root: string, out: string): Plugin {
  const builtOf = (file: string) => join(out, relative(root, file)).replace(/\.ts$/, '.js');
  const clock = join(root, CLOCK);
  return {
    name: 'keep-locations',
    setup(b) {
      b.onResolve({ filter: /\/clock\.js$/ }, (args) =>
        join(args.resolveDir, args.path).replace(/\.js$/, '.ts') === clock
          ? { path: pathToFileURL(builtOf(clock)).href, external: true }
          : undefined,
      );
      b.onLoad({ filter: /\.ts$/ }, async (args) =>
        args.path.includes('/node_modules/')
          ? undefined
          : { contents: withImportMeta(await readFile(args.path, 'utf8'), builtOf(args.path)), loader: 'ts' },
      );
      b.onLoad({ filter: /\/node_modules\/.*\.[cm]?js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!/__dirname|__filename|import\.meta\.(url|dirname|filename)/.test(source)) return undefined;
        return { contents: withCommonJsLocation(source, args.path), loader: 'js' };
      });
    },
  };
}

/** Writes a bundle of each of `PROCESS_ENTRIES` over its file-by-file copy in `out`. */
export async function bundleEntries(root: string, out: string): Promise<void> {
  await build({
    entryPoints: PROCESS_ENTRIES.map((entry) => join(root, entry)),
    outdir: out,
    outbase: root,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    external: LEFT_OUT,
    // Packages written as CommonJS call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    plugins: [keepLocations(root, out)],
    logLevel: 'warning',
  });
}
