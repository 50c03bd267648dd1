/**
 * Unit and type changes on one item: a contract price that arrives as 27 (cents) or 56 (percent)
 * where dollars in [0, 1] are documented, or decimal odds (1.91) where American odds were asked
 * for. The item is dropped and reported (class `unit`), never read as "no order" and filtered out
 * silently. Pure.
 */
import { num } from '../http/parse.js';
import type { Dropped } from './dropped.js';

/** The first of `fields` holding a number outside [0, 1], as a drop reason; undefined when all are dollars per $1 contract. */
export function priceUnitChange(
  item: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): string | undefined {
  for (const f of fields) {
    const v = num(item[f]);
    if (v !== undefined && (v < 0 || v > 1)) return `${f} ${String(item[f])} outside [0, 1]: price unit changed`;
  }
  return undefined;
}

/** Splits `items` into those whose prices are in dollars and the rest, reported as dropped. */
export function splitByPriceUnit<T extends object>(
  items: readonly T[],
  fields: readonly string[],
  idOf: (item: T) => string,
): { ok: T[]; dropped: Dropped[] } {
  const ok: T[] = [];
  const dropped: Dropped[] = [];
  for (const it of items) {
    const why = priceUnitChange(it as Readonly<Record<string, unknown>>, fields);
    if (why) dropped.push({ id: idOf(it), reason: why, class: 'unit' });
    else ok.push(it);
  }
  return { ok, dropped };
}
