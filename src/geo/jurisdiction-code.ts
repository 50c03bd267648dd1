/**
 * Jurisdiction codes as callers write them (`fallback_geo`, `geo`, DEFAULT_GEO) and as the resolver
 * forms them: "GB", "US-NJ", "ZZ". A region is kept only in the countries whose licences are regional
 * (subdivisions.ts); elsewhere a subdivision resolves to its country ("GB-ENG" → "GB"), since the
 * rules there are national and one body serves the whole country.
 */
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import { isCountryCode } from './countries.js';
import { isKnownSubdivision, SUBDIVIDED_COUNTRIES } from './subdivisions.js';

/**
 * The normalized code of `text`, or undefined when it is no jurisdiction: an assigned country code,
 * ZZ, or an ISO 3166-2 code (a known subdivision in the US and Canada; any well-formed one elsewhere,
 * resolved to the country). Upper case only, as ISO writes them.
 */
export function parseJurisdiction(text: string): string | undefined {
  if (text === UNKNOWN_COUNTRY) return text;
  const country = text.slice(0, 2);
  if (!isCountryCode(country)) return undefined;
  if (text.length === 2) return country;
  if (SUBDIVIDED_COUNTRIES.has(country)) return isKnownSubdivision(text) ? text : undefined;
  return /^-[A-Z0-9]{1,3}$/.test(text.slice(2)) ? country : undefined;
}
