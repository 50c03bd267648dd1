/**
 * The layering of docs/design.md ("Code layout"), checked: a file imports only from its own folder
 * or from a lower layer. A new top-level folder or file must be given its layer here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/files.js';

const root = resolve(import.meta.dirname, '../..');

/** Top-down as in docs/design.md; a higher number stands above a lower one. */
const LAYERS: Record<string, number> = {
  'main.ts': 13,
  'cluster/': 12,
  'api.ts': 11,
  'cli/': 11,
  'dev/': 11,
  'http/': 10,
  'serve/': 9,
  'embed/': 9,
  'transport/': 8,
  'widgets/': 7,
  workers: 7,
  'tracking/': 6,
  'limits/': 6,
  'sources/': 6,
  'process-entry.ts': 6,
  'metrics/': 5,
  'catalog/': 4,
  'live/': 4,
  'auth/': 4,
  'matching/': 3,
  'store/': 3,
  'config.ts': 4,
  'domain/': 1,
  'geo/': 1,
  'shutdown.ts': 1,
  'process/': 1,
  'model/': 0,
  'ws/': 0,
  'problem.ts': 0,
  'log.ts': 0,
  'with-timeout.ts': 0,
  'lifecycle.ts': 0,
  'watchdog.ts': 0,
};

/** The layer a file belongs to: its folder under src/ (or the file itself), or `workers`. */
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

const importsOf = (file: string): string[] => importsIn(file, readFileSync(file, 'utf8'));

/**
 * What transport/ may use besides its own files: the vocabulary, problems, the logger, metrics and
 * the WebSocket frames. Transport stands under everything that makes bodies or routes (serve/,
 * http/, widgets/, ...): it defines the types it sends, and those layers import them.
 */
const TRANSPORT_MAY_IMPORT = ['transport/', 'model/', 'problem.ts', 'log.ts', 'metrics/', 'ws/'];

/** The imports of a transport/ file (source `text`) outside what transport may use. */
function transportOverreach(file: string, text: string): string[] {
  return importsIn(file, text)
    .filter((target) => target.startsWith(join(root, 'src')))
    .filter((target) => !TRANSPORT_MAY_IMPORT.includes(unitOf(target)))
    .map((target) => `${relative(root, file)} -> ${relative(root, target)}`);
}

const files = [...filesUnder(join(root, 'src'), '.ts'), ...filesUnder(join(root, 'workers'), '.ts')];

describe('layers', () => {
  it('every top-level folder and file of src/ has a layer', () => {
    const unplaced = [...new Set(files.map(unitOf))].filter((u) => LAYERS[u] === undefined);
    expect(unplaced).toEqual([]);
  });

  it('no import runs from a lower layer to a higher one, or across one layer', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = unitOf(file);
      for (const target of importsOf(file)) {
        if (!target.startsWith(join(root, 'src')) && !target.startsWith(join(root, 'workers'))) continue;
        const to = unitOf(target);
        if (to !== from && !(LAYERS[to]! < LAYERS[from]!))
          upward.push(`${relative(root, file)} -> ${relative(root, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('only transport/ imports uWebSockets.js', () => {
    const users = files.filter((f) => /from\s+'uWebSockets\.js'/.test(readFileSync(f, 'utf8'))).map(unitOf);
    expect(users.length).toBeGreaterThan(0);
    expect([...new Set(users)]).toEqual(['transport/']);
  });

  it('transport/ imports only its own files, model/, problem.ts, log.ts, metrics/ and ws/ (never serve/ or http/)', () => {
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
    expect(transportOverreach(respond, "import { Problem } from '../problem.js';")).toEqual([]);
  });

  it('finds an upward import when there is one', () => {
    // The check itself: model/ importing serve/ would be refused.
    expect(LAYERS['model/']! < LAYERS['serve/']!).toBe(true);
    const sample = "import { x } from '../serve/payload-cache.js';";
    const [m] = [...sample.matchAll(IMPORT)];
    expect(m?.[1]).toBe('../serve/payload-cache.js');
  });
});
