/** The upstream HTTP helpers: backoff, Retry-After, quota headers, pagination guard, redaction. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from '../../src/sources/http/backoff.js';
import { buildUrl, redactUrl } from '../../src/sources/http/client.js';
import { chunk, collectPages, mapLimit } from '../../src/sources/http/paginate.js';
import { num } from '../../src/sources/http/parse.js';
import { QuotaTracker } from '../../src/sources/http/quota.js';

describe('backoff', () => {
  it('draws within an exponentially growing, capped window', () => {
    const opts = { baseMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4].map((a) => backoffDelay(a, opts, () => 0.999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelay(3, opts, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-22T14:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 14:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 13:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('QuotaTracker', () => {
  it('records x-requests-* and blocks calls once nothing remains, until the block lapses', () => {
    const q = new QuotaTracker(
      { remaining: 'x-requests-remaining', used: 'x-requests-used', last: 'x-requests-last' },
      60_000,
    );
    const t0 = new Date('2026-11-22T14:00:00Z');
    q.observe(new Headers({ 'x-requests-remaining': '2', 'x-requests-used': '498', 'x-requests-last': '3' }), t0);
    expect(q.snapshot()).toEqual({ remaining: 2, used: 498, last: 3 });
    expect(q.blockedUntil(t0)).toBeUndefined();
    q.observe(new Headers({ 'x-requests-remaining': '0', 'x-requests-used': '500' }), t0);
    expect(q.blockedUntil(new Date('2026-11-22T14:00:59Z'))).toEqual(new Date('2026-11-22T14:01:00Z'));
    expect(q.blockedUntil(new Date('2026-11-22T14:01:00Z'))).toBeUndefined();
    // A fresh allowance (new month) lifts the block at once.
    q.observe(new Headers({ 'x-requests-remaining': '20000' }), t0);
    expect(q.blockedUntil(t0)).toBeUndefined();
  });
});

describe('pagination and URLs', () => {
  it('follows cursors and stops on an empty or repeated one', async () => {
    const pages: Record<string, { items: number[]; cursor: string }> = {
      '': { items: [1, 2], cursor: 'a' },
      a: { items: [3], cursor: 'b' },
      b: { items: [4], cursor: 'a' },
    };
    expect(await collectPages(async (c) => pages[c ?? '']!)).toEqual([1, 2, 3, 4]);
    expect(await collectPages(async () => ({ items: [1], cursor: '' }))).toEqual([1]);
  });

  it('maps with bounded concurrency in order, and chunks', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([1, 2, 3, 4, 5], 2, async (x) => {
      peak = Math.max(peak, ++inFlight);
      await Promise.resolve();
      inFlight--;
      return x * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50]);
    expect(peak).toBeLessThanOrEqual(2);
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('repeats array parameters, skips undefined, and masks keys in URLs', () => {
    expect(buildUrl('http://h/v2/', '/markets', { slug: ['a', 'b'], limit: 5, cursor: undefined })).toBe(
      'http://h/v2/markets?slug=a&slug=b&limit=5',
    );
    expect(redactUrl('http://h/v4/odds?apiKey=abc123&regions=us')).toBe('http://h/v4/odds?apiKey=***&regions=us');
  });

  it('reads fixed-point strings', () => {
    expect(num('0.5600')).toBe(0.56);
    expect(num('')).toBeUndefined();
    expect(num('x')).toBeUndefined();
    expect(num(3)).toBe(3);
  });
});
