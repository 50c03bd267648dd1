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
 * - `guard`: a market that no longer matches what was reviewed.
 */
export const DROP_CLASSES = ['schema', 'unit', 'duplicate', 'inconsistent', 'future', 'lost', 'held', 'missing', 'guard'] as const;
export type DropClass = (typeof DROP_CLASSES)[number];

export interface Dropped {
  /** What the item was, as far as we can tell (a ticker, a slug, an index). */
  id: string;
  reason: string;
  class?: DropClass;
  /** For `lost` items: until when the item counts as missing (its event closes, its game starts). */
  until?: string;
  /** For `held` items: when the jump was first seen (it is accepted once it persists). */
  since?: string;
}
