/**
 * A visitor's jurisdiction: a country (ISO 3166-1 alpha-2, or ZZ for unknown) and, where licensing
 * is regional, its first-level subdivision (ISO 3166-2, such as US-NJ or CA-ON). It travels through
 * caches, topics and signed links as its code: "US-NJ", "GB", "ZZ".
 */

/** The resolved_geo when nothing places the caller (ISO 3166 user-assigned "unknown"). */
export const UNKNOWN_COUNTRY = 'ZZ';

export interface Jurisdiction {
  /** "US-NJ", "US" (region unknown), "GB", "ZZ". */
  code: string;
  /** ISO 3166-1 alpha-2, or ZZ. */
  country: string;
  /** ISO 3166-2 ("US-NJ") where the rules are regional and the region is known, else null. */
  region: string | null;
}

const parsed = new Map<string, Jurisdiction>();

/**
 * The jurisdiction of an already validated code ("US-NJ", "GB", "ZZ"). Memoized: the set of
 * codes is small (countries plus the subdivisions of regional countries) and this runs per build.
 */
export function jurisdictionOf(code: string): Jurisdiction {
  let j = parsed.get(code);
  if (!j) {
    j = Object.freeze({ code, country: code.slice(0, 2), region: code.length > 2 ? code : null });
    parsed.set(code, j);
  }
  return j;
}
