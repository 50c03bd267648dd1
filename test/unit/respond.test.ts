/** Transport's replies for a body: 200 per content coding, 304, made once per body and reply shape. */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, MIN_COMPRESS_BYTES } from '../../src/transport/compression.js';
import { cachedReply, jsonShape, Representation } from '../../src/transport/respond.js';
import type { HeaderList, Reply, Request } from '../../src/transport/types.js';

const CHANGED_AT = '2026-11-22T14:00:00.000Z';

const req = (headers: Record<string, string> = {}): Request => ({
  method: 'GET',
  path: '/v1/widgets/event',
  query: 'slug=a',
  headers,
  remoteAddress: '127.0.0.1',
});

/** `payload` as JSON bytes tagged by their hash, as serve/ gives bodies to transport. */
const represent = (payload: unknown, changedAt: string): Representation => {
  const bytes = Buffer.from(JSON.stringify(payload));
  return new Representation(bytes, createHash('sha1').update(bytes).digest('base64url'), new Date(changedAt));
};

/** The compressed copies a body holds: private to transport, read here to see that none is made early. */
const encodedOf = (body: Representation): Partial<Record<'br' | 'gzip', Buffer>> => Reflect.get(body, 'encoded');

/** A reply's header list as a record (names are unique in every reply). */
const headersOf = (r: Reply): Record<string, string> => {
  const list: HeaderList = r.headers ?? [];
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) out[String(list[i])] = String(list[i + 1]);
  return out;
};

describe('cachedReply', () => {
  // Large enough for compression to pay (a widget body is 1-4 KB).
  const payload = {
    hello: 'world',
    rows: Array.from({ length: 40 }, (_, i) => ({ operator: `op-${i % 4}`, price: `${50 + (i % 7)}¢` })),
  };
  const entry = represent(payload, CHANGED_AT);
  const text = JSON.stringify(payload);
  const shape = jsonShape({
    'cache-control': 'public, max-age=5',
    'access-control-allow-origin': '*',
    vary: 'X-Advertiser-Id',
  });

  it('answers 200 with the body, ETag, Last-Modified, the shape headers and Vary: Accept-Encoding', () => {
    const r = cachedReply(req(), entry, shape);
    expect(r.status).toBe(200);
    expect(Buffer.from(r.body!).toString()).toBe(text);
    const h = headersOf(r);
    expect(h).toMatchObject({
      etag: entry.etag,
      'last-modified': 'Sun, 22 Nov 2026 14:00:00 GMT',
      'cache-control': 'public, max-age=5',
      'access-control-allow-origin': '*',
      vary: 'X-Advertiser-Id, Accept-Encoding',
    });
    expect(h['content-type']).toMatch(/^application\/json/);
    expect(h['content-encoding']).toBeUndefined();
    // every name once
    expect(new Set(Object.keys(h)).size).toBe(r.headers!.length / 2);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['gzip;q=0', undefined],
  ])('Accept-Encoding %s is answered with %s, and the bytes decode to the body', (accept, coding) => {
    const r = cachedReply(req({ 'accept-encoding': accept }), entry, shape);
    const h = headersOf(r);
    expect(h['content-encoding']).toBe(coding);
    const bytes = Buffer.from(r.body!);
    const decoded = coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;
    expect(decoded.toString()).toBe(text);
    if (coding) {
      expect(bytes.length).toBeLessThan(entry.body.length);
      // a representation of its own: its own tag, from the same stem
      expect(h.etag).toBe(`${entry.etag.slice(0, -1)}-${coding}"`);
    }
    expect(h.vary).toContain('Accept-Encoding');
  });

  it('compresses a body once per coding, however often it is served', () => {
    const fresh = represent(payload, CHANGED_AT);
    const first = cachedReply(req({ 'accept-encoding': 'br' }), fresh, shape);
    const second = cachedReply(req({ 'accept-encoding': 'gzip, br' }), fresh, shape);
    expect(second.body).toBe(first.body);
    expect(encodedOf(fresh)).toEqual({ br: first.body }); // gzip only once a client asks for it
  });

  it.each([
    ['the exact tag', (etag: string) => etag],
    ['a weak tag', (etag: string) => `W/${etag}`],
    ['a list containing it', (etag: string) => `"abc", ${etag}, "def"`],
    ['a list containing it weakly', (etag: string) => `"abc",W/${etag}`],
    ['the brotli tag', (etag: string) => `${etag.slice(0, -1)}-br"`],
    ['*', () => '*'],
  ])('answers 304 without a body for If-None-Match: %s', (_, header) => {
    const r = cachedReply(req({ 'if-none-match': header(entry.etag) }), entry, shape);
    expect(r.status).toBe(304);
    expect(r.body).toBeUndefined();
    expect(headersOf(r).etag).toBe(entry.etag);
    expect(headersOf(r)['cache-control']).toBe('public, max-age=5');
  });

  it.each([
    ['another tag', '"not-it"'],
    ['the tag without quotes', 'UNQUOTED'],
    ['an empty header', ''],
  ])('answers 200 for If-None-Match: %s', (_, header) => {
    const value = header === 'UNQUOTED' ? entry.etag.slice(1, -1) : header;
    const r = cachedReply(req({ 'if-none-match': value }), entry, shape);
    expect(r.status).toBe(200);
    expect(Buffer.from(r.body!).toString()).toBe(text);
  });

  it('serves one body through two shapes, each with its own headers, each prepared once', () => {
    const body = represent(payload, CHANGED_AT);
    const shared = jsonShape({ 'cache-control': 'public, max-age=5, s-maxage=5', vary: 'CF-IPCountry' });
    const first = cachedReply(req({ 'accept-encoding': 'br' }), body, shape);
    const second = cachedReply(req({ 'accept-encoding': 'br' }), body, shared);
    expect(headersOf(first)['cache-control']).toBe('public, max-age=5');
    expect(headersOf(second)['cache-control']).toBe('public, max-age=5, s-maxage=5');
    expect(headersOf(second).vary).toBe('CF-IPCountry, Accept-Encoding');
    expect(cachedReply(req({ 'accept-encoding': 'br' }), body, shape)).toBe(first);
    expect(cachedReply(req({ 'accept-encoding': 'br' }), body, shared)).toBe(second);
    expect(second.body).toBe(first.body); // compressed once for both
  });

  it('a changed body no longer matches the old ETag', () => {
    const next = represent({ hello: 'there' }, '2026-11-22T14:01:00.000Z');
    const r = cachedReply(req({ 'if-none-match': entry.etag }), next, shape);
    expect(r.status).toBe(200);
    expect(headersOf(r).etag).toBe(next.etag);
    expect(headersOf(r)['last-modified']).toBe('Sun, 22 Nov 2026 14:01:00 GMT');
  });

  it('sends a body too small to gain uncompressed, with its plain tag', () => {
    const tiny = represent({ a: 1 }, CHANGED_AT);
    const r = cachedReply(req({ 'accept-encoding': 'br, gzip' }), tiny, shape);
    expect(headersOf(r)['content-encoding']).toBeUndefined();
    expect(headersOf(r).etag).toBe(tiny.etag);
    expect(Buffer.from(r.body!).toString()).toBe('{"a":1}');
  });

  it('sends a body shorter than one packet plain, though compression would shrink it, and compresses it from that length', () => {
    // A repetitive body that brotli shrinks at any length, one byte under the bound and at it.
    const sized = (n: number) => represent({ pad: 'a'.repeat(n - '{"pad":""}'.length) }, CHANGED_AT);
    const under = sized(MIN_COMPRESS_BYTES - 1);
    const at = sized(MIN_COMPRESS_BYTES);
    expect([under.body.length, at.body.length]).toEqual([MIN_COMPRESS_BYTES - 1, MIN_COMPRESS_BYTES]);
    expect(compress(under.body, 'br').length).toBeLessThan(under.body.length);
    const plain = cachedReply(req({ 'accept-encoding': 'br, gzip' }), under, shape);
    expect(headersOf(plain)['content-encoding']).toBeUndefined();
    expect(headersOf(plain).etag).toBe(under.etag);
    expect(encodedOf(under)).toEqual({}); // not even compressed to find out
    expect(headersOf(cachedReply(req({ 'accept-encoding': 'br, gzip' }), at, shape))['content-encoding']).toBe('br');
  });
});
