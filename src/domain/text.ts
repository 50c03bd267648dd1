/** Text folding shared by everything that compares names (teams, markets, outcomes). */

/** Drops accents: "Atlético" → "Atletico". */
export const stripAccents = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** Lowercase ASCII words separated by single spaces: "São Paulo F.C." → "sao paulo f c". */
export const foldName = (s: string): string =>
  stripAccents(s)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
