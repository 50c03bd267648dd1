/** What the quality gate and the parsers say about an item they left out or held. */
/**
 * Why an item was left out or held, by class (docs/sources.md): what an operator acts on differs
 * by class, so the metric and the meta carry it.
 * - `schema`: the item failed its schema (malformed, negative volume ...);
 * - `unit`: a value in another unit or type than before (prices in cents, decimal odds);
 * - `duplicate`: the same id twice in one response;
 * - `inconsistent`: the item contradicts itself (crossed book, both sides favoured, spreads not opposite);
 * - `future`: a timestamp ahead of our clock;
 * - `lost`: quoted in the last good snapshot, absent now;
 * - `held`: an implausible jump, kept at its last good value;
 * - `missing`: a reference the venue no longer answers (404, delisted);
 * - `guard`: a market that no longer matches what was reviewed;
 * - `stale`: a quote or line older than its source's freshness bound (a frozen book);
 * - `outlier`: a line far from the consensus of the other books;
 * - `identity`: a game that is not what its id was (teams, home side, sport, start, favourite changed);
 * - `range`: a figure outside its plausible range (a total of 2365 points);
 * - `lifecycle`: a market past its close time or settled while its status still says open;
 * - `field`: a malformed non-price field (volume, open interest, a text): nulled, the item kept.
 */
export const DROP_CLASSES = [
  'schema',
  'unit',
  'duplicate',
  'inconsistent',
  'future',
  'lost',
  'held',
  'missing',
  'guard',
  'stale',
  'outlier',
  'identity',
  'range',
  'lifecycle',
  'field',
] as const;
export type DropClass = (typeof DROP_CLASSES)[number];

export interface Dropped {
  /** What the item was, as far as we can tell (a ticker, a slug, an index). */
  id: string;
  reason: string;
  class?: DropClass;
  /** For `lost` items: until when the item counts as missing (its event closes, its game starts). */
  until?: string;
  /** For `held` and `identity` items: when the change was first seen (a hold is lifted once it persists). */
  since?: string;
}
