/**
 * Who a widget is built for, decided once per request: the jurisdiction, the locale and the currency.
 *
 * The jurisdiction: on public routes a trusted CDN's geo headers or the caller's address (through
 * TRUST_PROXY), else `fallback_geo`, else DEFAULT_GEO, else ZZ (the GeoResolver). Advertiser routes
 * are called from the advertiser's server, whose address says nothing of the viewer: there only the
 * viewer's `geo` counts (as a fallback_geo would), and without it the viewer is unknown (ZZ:
 * nothing that takes stakes). Which applies is the route's audience (http/audience.ts).
 */
import { LRUCache } from 'lru-cache';
import { currencyForCountry, usdRate } from '../domain/fx.js';
import { localeForJurisdiction, negotiateLocale } from '../domain/locale.js';
import type { GeoResult } from '../geo/resolver.js';
import type { CurrencyCode, FxData, Locale } from '../model/index.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';

// Shared, frozen results: this runs on every widget request.
const advertiserResults = new Map<string, GeoResult>();
const UNKNOWN: GeoResult = Object.freeze({ jurisdiction: UNKNOWN_COUNTRY, source: 'unknown' });

/**
 * An advertiser route's viewer: its `geo` (as a fallback_geo would be), else unknown (ZZ). Public
 * routes place the viewer with the GeoResolver.
 */
export function advertiserViewerGeo(viewerGeo: string | undefined): GeoResult {
  if (viewerGeo === undefined) return UNKNOWN;
  let result = advertiserResults.get(viewerGeo);
  if (!result)
    advertiserResults.set(viewerGeo, (result = Object.freeze({ jurisdiction: viewerGeo, source: 'fallback_geo' })));
  return result;
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
