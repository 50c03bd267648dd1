/**
 * Validating upstream lists item by item: one malformed entry is dropped and reported, the rest
 * are kept, so one bad market does not throw away a whole refresh.
 */
import type { z } from 'zod';
import { dedupe } from '../quality/duplicates.js';

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

/** Someone to tell about dropped items (a pino logger fits). */
export interface DropSink {
  warn(obj: object, msg: string): void;
}

/**
 * Parses each item with `schema`; returns the valid ones and a description of the rest. An id
 * listed twice is resolved first (quality/duplicates.ts): identical copies count once, differing
 * ones are all dropped.
 */
export function parseEach<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  idOf: (raw: unknown, index: number) => string,
): { ok: z.infer<S>[]; dropped: Dropped[] } {
  const ok: z.infer<S>[] = [];
  const { kept, dropped } = dedupe(items, idOf);
  kept.forEach((raw, i) => {
    const r = schema.safeParse(raw);
    if (r.success) ok.push(r.data);
    else dropped.push({ id: idOf(raw, i), reason: r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ').slice(0, 300), class: 'schema' });
  });
  return { ok, dropped };
}

/** A field of an unknown object, as a string id, for reporting. */
export function idField(field: string): (raw: unknown, index: number) => string {
  return (raw, index) => {
    const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : `#${index}`;
  };
}

/**
 * Adds dropped items (named by upstream) to `into`, the refresh's list that ends up in the
 * snapshot meta (the refresh logs them once per streak); without a list, logs them as one line.
 */
export function reportDropped(sink: DropSink | undefined, upstream: string, what: string, dropped: readonly Dropped[], into?: Dropped[]): void {
  if (dropped.length === 0) return;
  if (into) {
    into.push(...dropped.map((d) => ({ ...d, id: `${upstream}:${d.id}` })));
    return;
  }
  if (!sink) return;
  sink.warn({ upstream, dropped: dropped.slice(0, 20), count: dropped.length }, `${upstream}: dropped ${dropped.length} malformed ${what}; kept the rest`);
}

/** A decimal string or number as a finite number, or undefined ("0.5600" → 0.56; "" → undefined). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
