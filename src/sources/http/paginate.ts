/** Cursor pagination and bounded concurrency for upstream listings. */

export interface Page<T> {
  items: T[];
  /** The cursor of the next page; empty or undefined when this was the last one. */
  cursor?: string | null;
}

/**
 * Follows a cursor until the upstream stops returning one, or `maxPages` is reached (a guard
 * against an upstream that repeats a cursor forever). `onTruncated` hears when a cursor was left
 * unfollowed (the page cap, or a repeated cursor), so a short listing is never mistaken for all.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages = 50,
  onTruncated?: (why: string) => void,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; ; i++) {
    const page = await fetchPage(cursor);
    out.push(...page.items);
    const next = page.cursor ?? undefined;
    if (!next) break;
    if (seen.has(next)) {
      onTruncated?.(`cursor ${next.slice(0, 40)} repeated`);
      break;
    }
    if (i + 1 >= maxPages) {
      onTruncated?.(`page cap of ${maxPages} reached`);
      break;
    }
    seen.add(next);
    cursor = next;
  }
  return out;
}

/** Maps with at most `limit` calls in flight; results keep input order; the first rejection wins. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Splits a list into chunks of `size` (upstream limits on list parameters). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
