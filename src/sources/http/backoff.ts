/** Retry timing: jittered exponential backoff and the Retry-After header. */

export interface BackoffOptions {
  /** Delay before the first retry, ms. */
  baseMs: number;
  /** No single wait is longer than this, ms. */
  maxMs: number;
}

/**
 * "Full jitter" backoff: a uniform draw in [0, min(max, base x 2^attempt)], so many workers
 * retrying together spread out instead of hitting the upstream in step.
 * @param attempt 0 for the first retry
 * @param random a [0, 1) source, injectable for tests
 */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const cap = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * cap);
}

/**
 * The wait a Retry-After header asks for, in ms: delta-seconds ("3") or an HTTP date.
 * Returns undefined when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
