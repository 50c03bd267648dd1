/**
 * The layering of docs/design.md ("Code layout"), checked by the layers' names: a file imports
 * only from its own unit (a top-level folder or file of src/, or workers/) or from a unit of a
 * lower layer, never up and never sideways. A new unit must be given its layer here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/files.js';

const root = resolve(import.meta.dirname, '../..');

/** Bottom up, as docs/design.md draws them: a layer's units import only from the layers below. */
const LAYERS: ReadonlyArray<readonly [layer: string, units: readonly string[]]> = [
  ['model', ['model/', 'generated/']],
  ['foundation', ['runtime/', 'domain/', 'geo/']],
  ['store', ['store/']],
  ['state', ['config.ts', 'catalog/', 'auth/', 'live/', 'metrics/']],
  ['io', ['transport/', 'sources/', 'tracking/', 'limits/']],
  ['widgets', ['widgets/']],
  ['serving', ['serve/', 'embed/']],
  ['http', ['http/']],
  ['composition', ['api.ts', 'cluster/', 'tools/', 'workers']],
  ['entry', ['main.ts']],
];

const RANK = new Map(LAYERS.flatMap(([, units], rank) => units.map((unit) => [unit, rank] as const)));
const layerOf = (unit: string) => LAYERS[RANK.get(unit)!]![0];

/** The unit a file belongs to: its folder under src/ (or the file itself), or `workers`. */
function unitOf(file: string): string {
  const parts = relative(root, file).split('/');
  if (parts[0] === 'workers') return 'workers';
  return parts.length === 2 ? parts[1]! : `${parts[1]}/`;
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.[^']+)'/g;

/** The files `text` (the source of `file`) imports by a relative path, as .ts paths. */
function importsIn(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
}

const inTree = (target: string) => target.startsWith(join(root, 'src')) || target.startsWith(join(root, 'workers'));

/** The imports of `file` (source `text`) that run up or sideways, with their layers. */
function againstTheLayers(file: string, text: string): string[] {
  const from = unitOf(file);
  return importsIn(file, text)
    .filter(inTree)
    .filter((target) => unitOf(target) !== from && !(RANK.get(unitOf(target))! < RANK.get(from)!))
    .map((t) => `${relative(root, file)} (${layerOf(from)}) -> ${relative(root, t)} (${layerOf(unitOf(t))})`);
}

/**
 * What transport/ may use besides its own files: the vocabulary (with problems), the runtime's
 * logger and metrics. Transport stands under everything that makes bodies or routes (serve/,
 * http/, widgets/, ...): it defines the types it sends, and those layers import them.
 */
const TRANSPORT_MAY_IMPORT = ['transport/', 'model/', 'runtime/', 'metrics/'];

/** The imports of a transport/ file (source `text`) outside what transport may use. */
function transportOverreach(file: string, text: string): string[] {
  return importsIn(file, text)
    .filter((target) => target.startsWith(join(root, 'src')))
    .filter((target) => !TRANSPORT_MAY_IMPORT.includes(unitOf(target)))
    .map((target) => `${relative(root, file)} -> ${relative(root, target)}`);
}

const files = [...filesUnder(join(root, 'src'), '.ts'), ...filesUnder(join(root, 'workers'), '.ts')];

/**
 * The import cycles of `graph` (file -> files it imports), one path per cycle found by a depth-first
 * walk (`a -> b -> a`). A cycle inside one folder runs up no layer, yet it still makes its files one
 * piece that can only be read, tested and loaded together.
 */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('layers', () => {
  it('every top-level folder and file of src/ has a layer, and there are at most ten', () => {
    expect([...new Set(files.map(unitOf))].filter((u) => !RANK.has(u))).toEqual([]);
    expect(LAYERS.length).toBeLessThanOrEqual(10);
  });

  it('no import runs from a lower layer to a higher one, or across one layer', () => {
    expect(files.flatMap((f) => againstTheLayers(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('finds an import that runs up or sideways', () => {
    const store = join(root, 'src/store/redis.ts');
    expect(againstTheLayers(store, "import type { Config } from '../config.js';")).toEqual([
      'src/store/redis.ts (store) -> src/config.ts (state)',
    ]);
    const tracking = join(root, 'src/tracking/click-links.ts');
    expect(againstTheLayers(tracking, "import { x } from '../sources/registry.js';")).toEqual([
      'src/tracking/click-links.ts (io) -> src/sources/registry.ts (io)',
    ]);
    expect(againstTheLayers(tracking, "import { x } from '../catalog/operators.js';")).toEqual([]);
  });

  it('no file imports, through others, a file that imports it', () => {
    const graph = new Map(
      files.map((f) => [relative(root, f), importsIn(f, readFileSync(f, 'utf8')).map((t) => relative(root, t))]),
    );
    expect(cycles(graph)).toEqual([]);
    // The check itself: the cycle the route declarations once made through the document's schemas.
    const routes = new Map([
      ['openapi-schemas.ts', ['routes/health.ts']],
      ['routes/health.ts', ['route.ts', 'openapi-schemas.ts']],
      ['route.ts', []],
    ]);
    expect(cycles(routes)).toEqual(['openapi-schemas.ts -> routes/health.ts -> openapi-schemas.ts']);
  });

  it('only transport/ imports uWebSockets.js', () => {
    const users = files.filter((f) => /from\s+'uWebSockets\.js'/.test(readFileSync(f, 'utf8'))).map(unitOf);
    expect(users.length).toBeGreaterThan(0);
    expect([...new Set(users)]).toEqual(['transport/']);
  });

  it('transport/ imports only its own files, model/, runtime/ and metrics/ (never serve/ or http/)', () => {
    const transport = files.filter((f) => unitOf(f) === 'transport/');
    expect(transport.length).toBeGreaterThan(5);
    expect(transport.flatMap((f) => transportOverreach(f, readFileSync(f, 'utf8')))).toEqual([]);
    // The check itself: the import transport once had, and one from http/, are caught.
    const respond = join(root, 'src/transport/respond.ts');
    expect(
      transportOverreach(
        respond,
        "import type { CachedBody } from '../serve/payload-cache.js';\nimport type { Deps } from '../http/deps.js';",
      ),
    ).toEqual([
      'src/transport/respond.ts -> src/serve/payload-cache.ts',
      'src/transport/respond.ts -> src/http/deps.ts',
    ]);
    expect(transportOverreach(respond, "import { Problem } from '../model/problem.js';")).toEqual([]);
  });
});
