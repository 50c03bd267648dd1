/**
 * Who a widget is built for, decided once per request: the jurisdiction, the locale and the currency.
 *
 * The jurisdiction: public routes Public routes: a trusted CDN's geo headers or the caller's
 * address (through TRUST_PROXY), else `fallback_geo`, else DEFAULT_GEO, else ZZ. Advertiser routes
 * are called from the advertiser's server, whose address says nothing of the viewer: there only the
 * viewer's `geo` counts (as a fallback_geo would), and without it the viewer is unknown (ZZ:
 * nothing that takes stakes).
 */
import { LRUCache } from 'lru-cache';
import { currencyForCountry, usdRate } from '../domain/fx.js';
import { localeForJurisdiction, negotiateLocale } from '../domain/locale.js';
import type { GeoRequest, GeoResolver, GeoResult } from '../geo/resolver.js';
import type { CurrencyCode, FxData, Locale } from '../model/index.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';

// Shared, frozen results: this runs on every widget request.
const advertiserResults = new Map<string, GeoResult>();
const UNKNOWN: GeoResult = Object.freeze({ jurisdiction: UNKNOWN_COUNTRY, source: 'unknown' });

/** The jurisdiction and where it came from (the source decides whether a shared cache may keep the reply). */
export function viewerGeo(
  geo: Pick<GeoResolver, 'resolve'>,
  req: GeoRequest,
  fallbackGeo: string | undefined,
  /** Whether the route is an advertiser's (authenticated) one. */
  advertiser: boolean,
  /** The advertiser's `geo`. */
  viewerGeo: string | undefined,
): GeoResult {
  // Parameters, not the parsed query: each route's query object has its own shape, and one
  // function reading them all would be slow for every route (see transport/respond.ts).
  if (!advertiser) return geo.resolve(req, fallbackGeo);
  if (viewerGeo === undefined) return UNKNOWN;
  let result = advertiserResults.get(viewerGeo);
  if (!result)
    advertiserResults.set(viewerGeo, (result = Object.freeze({ jurisdiction: viewerGeo, source: 'fallback_geo' })));
  return result;
}

/** The jurisdiction code alone (see viewerGeo). */
export function viewerJurisdiction(...args: Parameters<typeof viewerGeo>): string {
  return viewerGeo(...args).jurisdiction;
}

// Browsers send a handful of distinct Accept-Language values: negotiate each once ('' for none).
const negotiated = new LRUCache<string, Locale | ''>({ max: 1_000 });
const languageOf = (acceptLanguage: string | undefined): Locale | '' => {
  if (!acceptLanguage) return '';
  let locale = negotiated.get(acceptLanguage);
  if (locale === undefined) negotiated.set(acceptLanguage, (locale = negotiateLocale(acceptLanguage) ?? ''));
  return locale;
};

/** Accept-Language when it names a catalog locale, else the jurisdiction's (domain/locale.ts). */
export function viewerLocale(acceptLanguage: string | undefined, jurisdiction: string): Locale {
  return languageOf(acceptLanguage) || localeForJurisdiction(jurisdiction);
}

/**
 * The currency asked for, else the jurisdiction's country's when its rate is loaded, else USD: the
 * country's currency is a nicety, an asked-for one is owed (the caller refuses it without a rate).
 */
export function viewerCurrency(
  requested: CurrencyCode | undefined,
  jurisdiction: string,
  rates: FxData | undefined,
): CurrencyCode {
  if (requested) return requested;
  const currency = currencyForCountry(jurisdiction.length === 2 ? jurisdiction : jurisdiction.slice(0, 2));
  return currency !== 'USD' && usdRate(currency, rates) === undefined ? 'USD' : currency;
}
