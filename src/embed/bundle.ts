/**
 * The browser bundles: the <predictwire-widget> element (src/embed/element), served as /v1/embed.js,
 * and the advertiser console's script (src/embed/console), inlined in /advertiser/console.
 *
 * From the source tree (tsx: `npm start`, tests) the API bundles each once at start with the
 * esbuild command-line tool (a dev dependency, run as a tool, never imported, so the compiled API
 * needs nothing outside `dependencies`). The compiled API (dist/, the image) loads the files
 * `npm run build` wrote next to this module.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = import.meta.dirname;

/** A browser bundle: its entry (present only in the source tree) and where `npm run build` writes it in dist/. */
export interface BrowserBundle {
  entry: string;
  prebuilt: string;
}

export const ELEMENT: BrowserBundle = { entry: resolve(here, 'element/index.ts'), prebuilt: resolve(here, 'embed.js') };
export const CONSOLE: BrowserBundle = {
  entry: resolve(here, 'console/index.ts'),
  prebuilt: resolve(here, 'console.js'),
};
/** The size budget a publisher's page pays for the element: 15 KB gzipped. */
export const MAX_GZIPPED_BYTES = 15 * 1024;

/** Bundles and minifies `entry` with the esbuild CLI of the source tree's node_modules. */
export async function bundle(entry: string): Promise<Buffer> {
  const esbuild = resolve(here, '../../node_modules/.bin/esbuild');
  const { stdout } = await promisify(execFile)(
    esbuild,
    [entry, '--bundle', '--minify', '--format=iife', '--target=es2020', '--legal-comments=none', '--log-level=warning'],
    { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 },
  );
  return stdout;
}

/** The bundle to serve: built from source when the source is here, else the prebuilt file. */
export async function loadBundle(b: BrowserBundle): Promise<Buffer> {
  if (existsSync(b.entry)) return bundle(b.entry);
  return readFile(b.prebuilt);
}

/** The element's bundle (/v1/embed.js). */
export const loadEmbedScript = (): Promise<Buffer> => loadBundle(ELEMENT);

/** Gzipped size in bytes (what the budget counts). */
export const gzippedSize = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).length;
