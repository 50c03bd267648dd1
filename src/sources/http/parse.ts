/**
 * Validating upstream lists item by item: one malformed entry is dropped and reported, the rest
 * are kept, so one bad market does not throw away a whole refresh.
 */
import type { z } from 'zod';

export interface Dropped {
  /** What the item was, as far as we can tell (a ticker, a slug, an index). */
  id: string;
  reason: string;
}

/** Someone to tell about dropped items (a pino logger fits). */
export interface DropSink {
  warn(obj: object, msg: string): void;
}

/** Parses each item with `schema`; returns the valid ones and a description of the rest. */
export function parseEach<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  idOf: (raw: unknown, index: number) => string,
): { ok: z.infer<S>[]; dropped: Dropped[] } {
  const ok: z.infer<S>[] = [];
  const dropped: Dropped[] = [];
  items.forEach((raw, i) => {
    const r = schema.safeParse(raw);
    if (r.success) ok.push(r.data);
    else dropped.push({ id: idOf(raw, i), reason: r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ').slice(0, 300) });
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
 * Logs dropped items once per refresh, as one line, and adds them (named by upstream) to `into`,
 * the refresh's list that ends up in the snapshot meta.
 */
export function reportDropped(sink: DropSink | undefined, upstream: string, what: string, dropped: readonly Dropped[], into?: Dropped[]): void {
  if (dropped.length === 0) return;
  into?.push(...dropped.map((d) => ({ id: `${upstream}:${d.id}`, reason: d.reason })));
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
