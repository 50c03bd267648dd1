/**
 * Which catalog locale a visitor reads: the language of the resolved country, overridden by
 * Accept-Language when it names a locale the catalog has; English otherwise.
 */
import { LOCALES, type Locale } from '../model/index.js';

// A Map, not an object: looked up on every request that names no catalog language, by any country.
const BY_COUNTRY: ReadonlyMap<string, Locale> = new Map(
  Object.entries({
    ...Object.fromEntries(
      [
        'ES',
        'MX',
        'AR',
        'CO',
        'CL',
        'PE',
        'VE',
        'EC',
        'GT',
        'CU',
        'BO',
        'DO',
        'HN',
        'PY',
        'SV',
        'NI',
        'CR',
        'PA',
        'UY',
        'GQ',
      ].map((c) => [c, 'es']),
    ),
    ...Object.fromEntries(['DE', 'AT', 'CH', 'LI'].map((c) => [c, 'de'])),
    ...Object.fromEntries(
      ['FR', 'BE', 'LU', 'MC', 'SN', 'CI', 'CM', 'ML', 'BF', 'NE', 'TD', 'GA', 'CG', 'CD', 'BJ', 'TG', 'MG', 'HT'].map(
        (c) => [c, 'fr'],
      ),
    ),
    ...Object.fromEntries(['BR', 'PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'].map((c) => [c, 'pt'])),
    // Subdivisions whose language differs from their country's.
    'CA-QC': 'fr',
  } as Record<string, Locale>),
);

/**
 * The locale for a jurisdiction ("CA-QC", "DE"): the subdivision's, else its country's (en when the
 * language is not in the catalog, and for ZZ).
 */
export function localeForJurisdiction(code: string): Locale {
  return BY_COUNTRY.get(code) ?? (code.length > 2 ? BY_COUNTRY.get(code.slice(0, 2)) : undefined) ?? 'en';
}

/**
 * The preferred entry of an Accept-Language header that is one of `available`, by quality then
 * order; only the primary subtag counts (de-AT is de). `*` and q=0 entries name nothing.
 */
export function negotiateLocale(
  acceptLanguage: string | undefined,
  available: readonly Locale[] = LOCALES,
): Locale | undefined {
  if (!acceptLanguage) return undefined;
  const ranges = acceptLanguage
    .split(',')
    .slice(0, 32) // a header is short; a huge one is not worth parsing
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { primary: tag.trim().split('-')[0]!.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.q > 0 && r.primary !== '*' && r.primary !== '')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranges) if ((available as readonly string[]).includes(r.primary)) return r.primary as Locale;
  return undefined;
}
