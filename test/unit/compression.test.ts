import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, windowBitsFor } from '../../src/transport/compression.js';

/** A widget-like JSON body of about `n` bytes: repetitive, as real ones are, with varying numbers. */
function body(n: number): Buffer {
  const rows: string[] = [];
  for (let i = 0; rows.join(',').length < n; i++)
    rows.push(
      JSON.stringify({
        operator_id: `op-${i % 7}`,
        price_cents: (i * 37) % 100,
        volume_usd: i * 1234.5,
        url: `https://pw.example/v1/click?o=op-${i % 7}&i=${i}`,
      }),
    );
  return Buffer.from(`[${rows.join(',')}]`.slice(0, n));
}

describe('windowBitsFor', () => {
  it("is the smallest window (its size less 16 bytes) that holds the body, within brotli's 10-24", () => {
    expect(windowBitsFor(1)).toBe(10);
    expect(windowBitsFor(1008)).toBe(10); // 2^10 - 16
    expect(windowBitsFor(1009)).toBe(11);
    expect(windowBitsFor(4080)).toBe(12);
    expect(windowBitsFor(4081)).toBe(13);
    expect(windowBitsFor(50_000_000)).toBe(24);
  });

  it('gives the bytes the default window gives, for bodies on either side of a window bound', () => {
    for (const n of [900, 1008, 1009, 3000, 4080, 4081, 20_000]) {
      const b = body(n);
      const fitted = compress(b, 'br');
      const wide = brotliCompressSync(b, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
      });
      expect(brotliDecompressSync(fitted).equals(b)).toBe(true);
      // Brotli writes its window size in the stream's first bits: the rest may differ, the size must not grow.
      expect(fitted.length).toBeLessThanOrEqual(wide.length + 1);
    }
  });
});
