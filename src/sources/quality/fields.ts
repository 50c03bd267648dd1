/**
 * A bad field costs only that field (docs/sources.md, invariant 6): a malformed non-price field of
 * an upstream item (a volume sent as "40,305.00", a negative open interest, rules that are not
 * text) is read as unknown and reported (class `field`); the item and its prices are kept, so an
 * event never disappears because of a figure it only displays. Pure.
 */
import { num } from '../http/parse.js';
import type { Dropped } from './dropped.js';

const shown = (raw: unknown) =>
  typeof raw === 'string' ? JSON.stringify(raw.slice(0, 40)) : String(JSON.stringify(raw) ?? raw).slice(0, 40);

/**
 * A figure we show (a volume, an open interest): a non-negative finite number, sent as a number or
 * a decimal string. Undefined when absent; null when present but malformed, which `faults` gets.
 */
export function figureField(raw: unknown, item: string, field: string, faults: Dropped[]): number | null | undefined {
  if (raw === undefined || raw === null) return undefined;
  const n = num(raw);
  if (n !== undefined && n >= 0) return n;
  faults.push({
    id: `${item}/${field}`,
    reason: `${field} ${shown(raw)} is not a non-negative number: shown as unknown, prices kept`,
    class: 'field',
  });
  return null;
}

/** A text we only pass on (rules, a description): the string; undefined when absent or malformed (reported to `faults`). */
export function textField(raw: unknown, item: string, field: string, faults: Dropped[]): string | undefined {
  if (typeof raw === 'string') return raw;
  if (raw === undefined || raw === null) return undefined;
  faults.push({
    id: `${item}/${field}`,
    reason: `${field} ${shown(raw)} is not text: left out, prices kept`,
    class: 'field',
  });
  return undefined;
}
