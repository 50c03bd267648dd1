/**
 * First-level subdivisions (ISO 3166-2) of the countries whose gambling licences are regional, with
 * the English names the IP database (DB-IP Lite city) gives them, so a database record maps to a
 * code. Other countries' subdivisions are accepted where a caller names one and resolve to the
 * country: their licensing is national.
 */

/** ISO 3166-2:US states and the District of Columbia. */
const US: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** ISO 3166-2:CA provinces and territories. */
const CA: Readonly<Record<string, string>> = {
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
};

const BY_COUNTRY: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map([
  ['US', US],
  ['CA', CA],
]);

/** Countries whose subdivisions this table knows (the only ones a region is resolved in). */
export const SUBDIVIDED_COUNTRIES: ReadonlySet<string> = new Set(BY_COUNTRY.keys());

/** True for "US-NJ", "CA-ON": a known subdivision of a subdivided country. */
export function isKnownSubdivision(code: string): boolean {
  const table = BY_COUNTRY.get(code.slice(0, 2));
  return code[2] === '-' && table !== undefined && Object.hasOwn(table, code.slice(3));
}

/** Every known subdivision code ("US-AL", ...), for validation and tests. */
export const SUBDIVISION_CODES: readonly string[] = [...BY_COUNTRY].flatMap(([c, t]) =>
  Object.keys(t).map((s) => `${c}-${s}`),
);

const byName = new Map<string, string>();
for (const [country, table] of BY_COUNTRY)
  for (const [code, name] of Object.entries(table))
    byName.set(`${country}\n${name.toLowerCase()}`, `${country}-${code}`);

/** The ISO 3166-2 code of a subdivision by its database name ("New Jersey" in US → "US-NJ"). */
export function subdivisionByName(country: string, name: string): string | undefined {
  return byName.get(`${country}\n${name.toLowerCase()}`);
}

/** The ISO 3166-2 code for a CDN's subdivision part ("NJ" in US → "US-NJ"), if known. */
export function subdivisionByCode(country: string, part: string): string | undefined {
  const code = `${country}-${part.toUpperCase()}`;
  return isKnownSubdivision(code) ? code : undefined;
}

/** The English name of a known subdivision ("US-NJ" → "New Jersey"), if known. */
export function subdivisionName(code: string): string | undefined {
  const table = BY_COUNTRY.get(code.slice(0, 2));
  return code[2] === '-' && table !== undefined && Object.hasOwn(table, code.slice(3))
    ? table[code.slice(3)]
    : undefined;
}
