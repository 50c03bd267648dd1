/** Validated JSON values in Redis: every read is checked, and a bad value is dropped rather than trusted. */
import type { Redis } from 'ioredis';
import type { z } from 'zod';

/** The value at `key` when it parses as `schema`; undefined when absent, not JSON or not valid. */
export async function readJsonValue<S extends z.ZodType>(
  redis: Redis,
  key: string,
  schema: S,
): Promise<z.infer<S> | undefined> {
  const raw = await redis.get(key);
  if (raw === null) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as z.infer<S>) : undefined;
  } catch {
    return undefined;
  }
}
