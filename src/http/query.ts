/** Query-string validation: zod issues become the `errors` list of a 400 problem. */
import type { z } from 'zod';
import { invalidParameters } from './problem.js';

/**
 * Parses a raw query string against a zod object schema. Only the first value of a repeated
 * parameter counts. Unknown parameters are ignored (publishers add cache-busters).
 * @throws Problem 400 invalid_parameter listing every bad parameter.
 */
export function parseQuery<S extends z.ZodType>(schema: S, rawQuery: string): z.infer<S> {
  const params = new URLSearchParams(rawQuery);
  const obj: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in obj)) obj[k] = v;
  const result = schema.safeParse(obj);
  if (result.success) return result.data;
  throw invalidParameters(
    result.error.issues.map((issue) => ({ param: String(issue.path[0] ?? 'query'), message: issue.message })),
  );
}
