/**
 * Geo resolution for one request (docs/compliance.md, "How a visitor's jurisdiction is decided"):
 * a trusted CDN's geo headers, else the client address in the IP database; when neither places the
 * visitor (no CDN header, unreadable, loopback, private or reserved, or not in the database) the
 * request's fallback_geo, then DEFAULT_GEO, then ZZ. The result is a jurisdiction code: the country,
 * with its subdivision where licensing is regional ("US-NJ", "CA-ON").
 */
import { LRUCache } from 'lru-cache';
import { CDN_GEO, type CdnName } from './cdn-headers.js';
import { AddressMatcher } from './cidr.js';
import { clientAddress } from './client-address.js';
import { isCountryCode, UNKNOWN_COUNTRY } from './countries.js';
import { parseIp, type IpAddress } from './ip.js';
import type { LocationLookup } from './location-db.js';
import { isNonPublic } from './reserved.js';
import { subdivisionByCode, subdivisionByName } from './subdivisions.js';

export type GeoSource = 'cdn' | 'ip' | 'fallback_geo' | 'default_geo' | 'unknown';

export interface GeoResult {
  /** "US-NJ", "GB", or ZZ. */
  jurisdiction: string;
  source: GeoSource;
}

/** What resolution reads of a request: the socket peer's address and the headers it was given. */
export interface GeoRequest {
  remoteAddress: string;
  headers: Readonly<Partial<Record<string, string>>>;
}

export class GeoResolver {
  readonly #trusted: AddressMatcher;
  readonly #cdn: (typeof CDN_GEO)[CdnName] | undefined;
  /**
   * The result from the address (false for none), per peer address, X-Forwarded-For and CDN
   * headers: parsing, the reserved-range check and the database lookup cost more than the rest of
   * a cached widget request, and a visitor's next requests come from the same address.
   */
  readonly #byAddress = new LRUCache<string, GeoResult | false>({ max: 50_000 });
  // Results are shared, frozen objects: resolve() runs on every widget request.
  readonly #fallbacks = new Map<string, GeoResult>();
  readonly #default: GeoResult;

  constructor(
    private readonly db: LocationLookup,
    trustProxy: readonly string[],
    /** DEFAULT_GEO, already a normalized jurisdiction code. */
    defaultGeo: string | undefined,
    /** The CDN in front (CDN_GEO), whose geo headers are believed from trusted peers. */
    cdn?: CdnName,
  ) {
    this.#trusted = new AddressMatcher(trustProxy);
    this.#cdn = cdn && trustProxy.length > 0 ? CDN_GEO[cdn] : undefined;
    this.#default = Object.freeze(
      defaultGeo
        ? { jurisdiction: defaultGeo, source: 'default_geo' }
        : { jurisdiction: UNKNOWN_COUNTRY, source: 'unknown' },
    );
  }

  /** The request header names resolve() reads besides X-Forwarded-For (none without a trusted CDN). */
  get headerNames(): readonly string[] {
    return this.#cdn ? [this.#cdn.country, this.#cdn.region] : [];
  }

  /** Whether `ip` is one of our proxies or load balancers (TRUST_PROXY). */
  isTrustedProxy(ip: IpAddress): boolean {
    return this.#trusted.size > 0 && this.#trusted.matches(ip);
  }

  /** The client address of a request, believing X-Forwarded-For only through trusted proxies. */
  clientAddress(req: GeoRequest): IpAddress | undefined {
    return clientAddress(req.remoteAddress, req.headers['x-forwarded-for'], this.#trusted);
  }

  /** The jurisdiction of the client, from a trusted CDN or its address, else `fallbackGeo` (already normalized). */
  resolve(req: GeoRequest, fallbackGeo?: string): GeoResult {
    let fromIp: GeoResult | false | undefined;
    if (this.#trusted.size === 0) {
      fromIp = this.#byAddress.get(req.remoteAddress);
      if (fromIp === undefined) this.#byAddress.set(req.remoteAddress, (fromIp = this.#lookup(req)));
    } else {
      // Forwarded headers split the cache only through a trusted proxy (otherwise they are ignored).
      const cdn = this.#cdn;
      const key = `${req.remoteAddress}\n${req.headers['x-forwarded-for'] ?? ''}${cdn ? `\n${req.headers[cdn.country] ?? ''}\n${req.headers[cdn.region] ?? ''}` : ''}`;
      fromIp = this.#byAddress.get(key);
      if (fromIp === undefined) this.#byAddress.set(key, (fromIp = this.#fromCdn(req) ?? this.#lookup(req)));
    }
    if (fromIp) return fromIp;
    if (!fallbackGeo) return this.#default;
    let fallback = this.#fallbacks.get(fallbackGeo);
    if (!fallback)
      this.#fallbacks.set(
        fallbackGeo,
        (fallback = Object.freeze({ jurisdiction: fallbackGeo, source: 'fallback_geo' })),
      );
    return fallback;
  }

  /** From the CDN's headers when the peer is a trusted proxy and they name a country. */
  #fromCdn(req: GeoRequest): GeoResult | undefined {
    const cdn = this.#cdn;
    if (!cdn) return undefined;
    const country = req.headers[cdn.country]?.toUpperCase();
    if (!country || !isCountryCode(country)) return undefined; // XX, T1 (Tor) and junk place no one
    const peer = parseIp(req.remoteAddress);
    if (!peer || !this.isTrustedProxy(peer)) return undefined;
    const part = req.headers[cdn.region];
    // A subdivision is kept only where licences are regional (subdivisionByCode knows no other).
    return Object.freeze({ jurisdiction: (part && subdivisionByCode(country, part)) || country, source: 'cdn' });
  }

  #lookup(req: GeoRequest): GeoResult | false {
    const ip = this.clientAddress(req);
    const found = ip && !isNonPublic(ip) ? this.db.locate(ip) : undefined;
    if (!found) return false;
    // A subdivision is kept only where licences are regional (subdivisionByName knows no other).
    const subdivision =
      found.subdivisionName === undefined ? undefined : subdivisionByName(found.country, found.subdivisionName);
    return Object.freeze({ jurisdiction: subdivision ?? found.country, source: 'ip' });
  }
}
