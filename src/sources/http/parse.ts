/**
 * Validating upstream lists item by item: one malformed entry is dropped and reported, the rest
 * are kept, so one bad market does not throw away a whole refresh.
 */
import type { z } from 'zod';
import { dedupe } from '../quality/duplicates.js';
import type { Dropped } from '../quality/dropped.js';

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
    else
      dropped.push({
        id: idOf(raw, i),
        reason: r.error.issues
          .map((x) => `${x.path.join('.')}: ${x.message}`)
          .join('; ')
          .slice(0, 300),
        class: 'schema',
      });
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
export function reportDropped(
  sink: DropSink | undefined,
  upstream: string,
  what: string,
  dropped: readonly Dropped[],
  into?: Dropped[],
): void {
  if (dropped.length === 0) return;
  if (into) {
    into.push(...dropped.map((d) => ({ ...d, id: `${upstream}:${d.id}` })));
    return;
  }
  if (!sink) return;
  sink.warn(
    { upstream, dropped: dropped.slice(0, 20), count: dropped.length },
    `${upstream}: dropped ${dropped.length} malformed ${what}; kept the rest`,
  );
}

/** A decimal string or number as a finite number, or undefined ("0.5600" → 0.56; "" → undefined). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
