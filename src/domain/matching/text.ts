/** Title normalization for matching: folded, stop words and dates removed, light stemming. */
import { MONTH_NAMES } from '../../model/months.js';
import { stripAccents } from '../text.js';

const STOP = new Set(
  'a an the of in on at by to for be will would is are was with from as or and than this that who what which when whether before after during end market question yes no ever next new 2024 2025 2026 2027 2028 2029 2030 st nd rd th'.split(
    ' ',
  ),
);

const MONTH_WORDS = new Set([...MONTH_NAMES, ...MONTH_NAMES.map((m) => m.slice(0, 3)), 'sept']);

/** Words that turn a question around; one side having them and the other not hints at inversion. */
export const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'remain',
  'remains',
  'stay',
  'stays',
  'keep',
  'keeps',
  'retain',
  'retains',
  'fail',
  'fails',
  'without',
]);

/** Phrases two venues use for the same thing, folded to one token. */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bleaves? office\b|\bremoved from power\b|\bout as\b|\bstep(s)? down\b|\bresigns?\b/g, ' out '],
  [/\bunited states\b|\bu\.s\.a?\b|\bus\b/g, ' usa '],
];

/** Lowercase ASCII with punctuation as spaces (accents dropped). */
export function fold(s: string): string {
  return stripAccents(s)
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9.]+/g, ' ')
    .replace(/\.(?!\d)/g, ' ')
    .trim();
}

const stem = (w: string) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

const UNITS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

/**
 * Amounts written one canonical way, so venues' spellings compare equal:
 * "$150,000", "$150k" and "150 thousand" all become "150000"; "$1.5M" becomes "1500000".
 */
export function canonicalAmounts(s: string): string {
  return s.replace(
    /\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(k|m|bn|b|thousand|million|billion)\b)?/gi,
    (all, int: string, frac: string | undefined, unit: string | undefined) => {
      if (!unit && !int.includes(',')) return all;
      const n = Number(`${int.replace(/,/g, '')}${frac ?? ''}`) * (unit ? (UNITS[unit.toLowerCase()] ?? 1) : 1);
      return String(Math.round(n * 100) / 100);
    },
  );
}

/** ISO dates and timestamps removed (the deadline reader handles dates). */
const withoutIsoDates = (s: string) => s.replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?/gi, ' ');

/** Content tokens of a text: no stop words, no month names or bare day numbers, stemmed. */
export function tokens(s: string): string[] {
  // ISO timestamps carry no words; the deadline reader handles dates.
  let t = ` ${fold(canonicalAmounts(withoutIsoDates(s)))} `;
  for (const [re, rep] of PHRASES) t = t.replace(re, rep);
  return t
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w) && !MONTH_WORDS.has(w) && !/^\d{1,2}$/.test(w))
    .map(stem);
}

/** Numbers in a label that are not dates ("at least 6" → ["6"], "$150k" → ["150000"]). */
export function numericTokens(s: string): string[] {
  const withoutDates = fold(canonicalAmounts(withoutIsoDates(s)))
    .replace(new RegExp(`\\b(${[...MONTH_WORDS].join('|')})\\s+\\d{1,2}\\b`, 'g'), ' ')
    .replace(/\b(19|20)\d{2}\b/g, ' ');
  return withoutDates.match(/\d+(\.\d+)?/g) ?? [];
}

/** True when any negation word appears. */
export function hasNegation(s: string): boolean {
  return fold(s)
    .split(' ')
    .some((w) => NEGATIONS.has(w));
}
