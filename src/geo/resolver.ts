/**
 * Geo resolution for one request (docs/design.md, "Geo and compliance"): client address → country from the database;
 * when that fails (unreadable, loopback, private or reserved, or not in the database) the
 * request's fallback_geo, then DEFAULT_GEO, then ZZ.
 */
import { LRUCache } from 'lru-cache';
import type { Request } from '../http/types.js';
import { AddressMatcher } from './cidr.js';
import { clientAddress } from './client-address.js';
import type { CountryLookup } from './country-db.js';
import { UNKNOWN_COUNTRY } from './countries.js';
import type { IpAddress } from './ip.js';
import { isNonPublic } from './reserved.js';

export type GeoSource = 'ip' | 'fallback_geo' | 'default_geo' | 'unknown';

export interface GeoResult {
  /** ISO 3166-1 alpha-2, or ZZ. */
  country: string;
  source: GeoSource;
}

export class GeoResolver {
  readonly #trusted: AddressMatcher;
  /**
   * The result from the address (false for none), per peer address and X-Forwarded-For: parsing,
   * the reserved-range check and the database lookup cost more than the rest of a cached widget
   * request, and a visitor's next requests come from the same address.
   */
  readonly #byAddress = new LRUCache<string, GeoResult | false>({ max: 50_000 });
  // Results are shared, frozen objects: resolve() runs on every widget request.
  readonly #fallbacks = new Map<string, GeoResult>();
  readonly #default: GeoResult;

  constructor(
    private readonly db: CountryLookup,
    trustProxy: readonly string[],
    defaultGeo: string | undefined,
  ) {
    this.#trusted = new AddressMatcher(trustProxy);
    this.#default = Object.freeze(defaultGeo ? { country: defaultGeo, source: 'default_geo' } : { country: UNKNOWN_COUNTRY, source: 'unknown' });
  }

  /** The client address of a request, believing X-Forwarded-For only through trusted proxies. */
  clientAddress(req: Pick<Request, 'remoteAddress' | 'headers'>): IpAddress | undefined {
    return clientAddress(req.remoteAddress, req.headers['x-forwarded-for'], this.#trusted);
  }

  /** The country of the client, from its address, else `fallbackGeo` (already validated). */
  resolve(req: Pick<Request, 'remoteAddress' | 'headers'>, fallbackGeo?: string): GeoResult {
    // X-Forwarded-For counts only through a trusted proxy: otherwise it must not split the cache.
    const xff = this.#trusted.size > 0 ? req.headers['x-forwarded-for'] : undefined;
    const key = xff === undefined ? req.remoteAddress : `${req.remoteAddress}\n${xff}`;
    let fromIp = this.#byAddress.get(key);
    if (fromIp === undefined) {
      const ip = this.clientAddress(req);
      const country = ip && !isNonPublic(ip) ? this.db.country(ip) : undefined;
      fromIp = country ? Object.freeze({ country, source: 'ip' }) : false;
      this.#byAddress.set(key, fromIp);
    }
    if (fromIp) return fromIp;
    if (!fallbackGeo) return this.#default;
    let fallback = this.#fallbacks.get(fallbackGeo);
    if (!fallback) this.#fallbacks.set(fallbackGeo, (fallback = Object.freeze({ country: fallbackGeo, source: 'fallback_geo' })));
    return fallback;
  }
}
