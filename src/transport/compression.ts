/**
 * Content coding for cached bodies: the client's preferred coding from Accept-Encoding, and the
 * compressed bytes, made once per body (a body is built once per data version) and kept with it.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export type Encoding = 'br' | 'gzip' | 'identity';

// Browsers send a handful of distinct Accept-Encoding values: parse each once.
const parsed = new LRUCache<string, Encoding>({ max: 512 });

/**
 * The coding to answer with: br, else gzip, else identity. A coding with `q=0` is refused, `*`
 * stands for the codings not named. Identity is always possible (we never answer 406).
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  let enc = parsed.get(acceptEncoding);
  if (enc === undefined) parsed.set(acceptEncoding, (enc = parse(acceptEncoding)));
  return enc;
}

function parse(header: string): Encoding {
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  // Equal weights favour brotli: smaller bytes for the same data.
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

/**
 * Bodies shorter than this are sent plain. With a widget reply's headers (about 600 bytes), such a
 * body fits in one TCP segment (1,460 bytes of payload on Ethernet) either way, so compressing it
 * saves no packet, while each compression costs a fixed 50-100 µs (the encoder's state is set up
 * per body): the most of a rebuild's cost for the small bodies that live markets and jurisdictions
 * with nothing to show rebuild several times a minute.
 */
export const MIN_COMPRESS_BYTES = 860;

/**
 * Brotli quality 5: within ~12 % of the maximum's size for widget bodies at a fiftieth of its time
 * (about 0.1-0.2 ms against 3-7 ms for a 1-3 KB body). Live-market bodies are rebuilt every second,
 * so the maximum would cost a core's noticeable share; fixed assets use `maxQuality`.
 */
const BROTLI_QUALITY = 5;

/**
 * The smallest brotli window (log2 of its bytes, 10-24; a window holds its size less 16 bytes) that
 * holds all of `length` bytes: a larger one finds no more matches (as many bytes come out) but
 * costs its setup all the same, about a seventh of a 3 KB widget body's compression time.
 */
export function windowBitsFor(length: number): number {
  return Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(length + 16))),
  );
}

/** The bytes of `body` in `encoding`; `maxQuality` for bodies made once per process (slower, smaller). */
export function compress(body: Buffer, encoding: Exclude<Encoding, 'identity'>, maxQuality = false): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: maxQuality ? 9 : 6 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: maxQuality ? constants.BROTLI_MAX_QUALITY : BROTLI_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: windowBitsFor(body.length),
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
