/** Query-string validation: zod issues become the `errors` list of a 400 problem. */
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { invalidParameters } from '../model/problem.js';

// Widgets are embedded on many pages with the same query strings: parse each once. Results are
// plain immutable data; only successes are kept. Each schema's memo holds up to 10,000 query
// strings, least recently used out first, so a page mix of thousands of variants is not parsed
// again on every request (bench/README.md, mixed workload). Unknown parameters are accepted, so a
// client can make every query string new and long: the memo is also bounded by its keys' length
// (about 2 MB a schema), which ten thousand real widget queries of a hundred characters stay under.
export const MEMO_LIMIT = 10_000;
export const MEMO_MAX_CHARS = 2_000_000;
/** What an entry counts against MEMO_MAX_CHARS: its key, and a little for the parsed object. */
const entrySize = (_value: object, key: string) => key.length + 64;
const memos = new WeakMap<z.ZodType, LRUCache<string, object>>();

/**
 * Parses a raw query string against a zod object schema. Only the first value of a repeated
 * parameter counts. Unknown parameters are ignored (publishers add cache-busters).
 * @throws Problem 400 invalid_parameter listing every bad parameter.
 */
export function parseQuery<S extends z.ZodType>(schema: S, rawQuery: string): z.infer<S> {
  let memo = memos.get(schema);
  if (!memo)
    memos.set(schema, (memo = new LRUCache({ max: MEMO_LIMIT, maxSize: MEMO_MAX_CHARS, sizeCalculation: entrySize })));
  const hit = memo.get(rawQuery);
  if (hit !== undefined) return hit as z.infer<S>;
  const value = parseUncached(schema, rawQuery);
  memo.set(rawQuery, Object.freeze(value));
  return value;
}

function parseUncached<S extends z.ZodType>(schema: S, rawQuery: string): z.infer<S> {
  const params = new URLSearchParams(rawQuery);
  const obj: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in obj)) obj[k] = v;
  const result = schema.safeParse(obj);
  if (result.success) return result.data;
  throw invalidParameters(
    result.error.issues.map((issue) => ({ param: String(issue.path[0] ?? 'query'), message: issue.message })),
  );
}
