/** Schemas shared by the reviewed data that names jurisdictions (rules, offers, destinations, disclosures). */
import { z } from 'zod';
import { isCountryCode } from '../geo/countries.js';
import { isKnownSubdivision, SUBDIVIDED_COUNTRIES } from '../geo/subdivisions.js';

/**
 * A code reviewed data may name: a country (ISO 3166-1 alpha-2), or a subdivision of a country whose
 * licences are regional (US-NJ, CA-ON): a subdivision elsewhere could never match a visitor.
 */
export const RuleJurisdiction = z.string().refine((s) => (s.length === 2 ? isCountryCode(s) : isKnownSubdivision(s)), {
  message: `not a country code or a subdivision of ${[...SUBDIVIDED_COUNTRIES].join(' or ')}`,
});

/**
 * The entry of `table` that applies in `jurisdiction`: its subdivision's, else its country's
 * (a visitor whose region is unknown gets only a whole-country entry).
 */
export function entryFor<T>(table: ReadonlyMap<string, T>, country: string, region: string | null): T | undefined {
  return (region === null ? undefined : table.get(region)) ?? table.get(country);
}
