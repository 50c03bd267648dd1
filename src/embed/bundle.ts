/**
 * The browser bundle of <predictwire-widget> (src/embed/element), served as /v1/embed.js.
 *
 * From the source tree (tsx: `npm start`, tests) the API bundles the element once at start with the
 * esbuild command-line tool (a dev dependency, run as a tool, never imported, so the compiled API
 * needs nothing outside `dependencies`). The compiled API (dist/, the image) loads the file
 * `npm run build` wrote next to this module.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = import.meta.dirname;
/** The element's entry; present only in the source tree. */
export const ELEMENT_ENTRY = resolve(here, 'element/index.ts');
/** Where `npm run build` writes the bundle in dist/, and the compiled API reads it. */
export const PREBUILT_BUNDLE = resolve(here, 'embed.js');
/** The size budget a publisher's page pays: 15 KB gzipped. */
export const MAX_GZIPPED_BYTES = 15 * 1024;

/** Bundles and minifies the element with the esbuild CLI of the source tree's node_modules. */
export async function bundleElement(): Promise<Buffer> {
  const esbuild = resolve(here, '../../node_modules/.bin/esbuild');
  const { stdout } = await promisify(execFile)(
    esbuild,
    [ELEMENT_ENTRY, '--bundle', '--minify', '--format=iife', '--target=es2020', '--legal-comments=none', '--log-level=warning'],
    { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 },
  );
  return stdout;
}

/** The bundle to serve: built from source when the source is here, else the prebuilt file. */
export async function loadEmbedScript(): Promise<Buffer> {
  if (existsSync(ELEMENT_ENTRY)) return bundleElement();
  return readFile(PREBUILT_BUNDLE);
}

/** Gzipped size in bytes (what the budget counts). */
export const gzippedSize = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).length;
