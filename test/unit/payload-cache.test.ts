import { describe, expect, it } from 'vitest';
import { PayloadCache, type CachedBody } from '../../src/serve/payload-cache.js';
import { VariantKeys } from '../../src/serve/variant-keys.js';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { cachedReply, jsonShape } from '../../src/transport/respond.js';
import { compress, MIN_COMPRESS_BYTES } from '../../src/transport/compression.js';
import type { HeaderList, Reply, Request } from '../../src/transport/types.js';

const CHANGED_AT = '2026-11-22T14:00:00.000Z';
const NOW = Date.parse('2026-11-22T14:00:05.000Z');

const req = (headers: Record<string, string> = {}): Request => ({
  method: 'GET',
  path: '/v1/widgets/event',
  query: 'slug=a',
  headers,
  remoteAddress: '127.0.0.1',
});

describe('PayloadCache', () => {
  it('stores the JSON bytes, a quoted ETag and an HTTP date', () => {
    const cache = new PayloadCache();
    const payload = { a: 1, b: ['x', 'y'], c: 'é' };
    const entry = cache.put('events', 'k1', payload, CHANGED_AT);
    expect(entry.body.toString('utf8')).toBe('{"a":1,"b":["x","y"],"c":"é"}');
    expect(entry.etag).toMatch(/^"[^"]+"$/);
    // 2026-11-22 is a Sunday (day 326 of a year starting on Thursday: 325 mod 7 = 3 -> Thu+3)
    expect(entry.lastModified).toBe('Sun, 22 Nov 2026 14:00:00 GMT');
    expect(cache.get('events', 'k1', NOW)).toBe(entry);
  });

  it('gives the same ETag for the same body and a different one for a different body', () => {
    const cache = new PayloadCache();
    const a = cache.put('events', 'k1', { price: '62¢' }, CHANGED_AT);
    const again = cache.put('sportsbook', 'other', { price: '62¢' }, '2026-11-23T00:00:00.000Z');
    const b = cache.put('events', 'k2', { price: '63¢' }, CHANGED_AT);
    expect(again.etag).toBe(a.etag);
    expect(b.etag).not.toBe(a.etag);
    // another PayloadCache (another API process) agrees
    expect(new PayloadCache().put('metrics', 'x', { price: '62¢' }, CHANGED_AT).etag).toBe(a.etag);
  });

  it('marks a body stale when an input it was built from (FX) is stale, and drops it when that input changes', () => {
    const fxFetched = '2026-11-20T16:00:00.000Z';
    let fxStale = false;
    const cache = new PayloadCache((kind) =>
      kind === 'fx' && fxStale ? { stale: true, data_fetched_at: fxFetched } : undefined,
    );
    const usd = cache.put('metrics', 'usd', { total: '$1M' }, CHANGED_AT);
    const eur = cache.put('metrics', 'eur', { total: '€1M' }, CHANGED_AT, undefined, undefined, ['fx']);
    expect(JSON.parse(eur.body.toString())).toEqual({ total: '€1M' });
    fxStale = true;
    cache.invalidate('fx');
    // Every metrics body went with the rates it may have used; rebuilt, only the converted one is stale.
    expect(cache.get('metrics', 'eur', NOW)).toBeUndefined();
    expect(cache.get('metrics', 'usd', NOW)).toBeUndefined();
    expect(
      JSON.parse(
        cache.put('metrics', 'eur', { total: '€1M' }, CHANGED_AT, undefined, undefined, ['fx']).body.toString(),
      ),
    ).toEqual({ total: '€1M', stale: true, data_fetched_at: fxFetched });
    expect(cache.put('metrics', 'usd', { total: '$1M' }, CHANGED_AT).body).toEqual(usd.body);
  });

  it('misses unknown keys and kinds', () => {
    const cache = new PayloadCache();
    cache.put('events', 'k1', {}, CHANGED_AT);
    expect(cache.get('events', 'k2', NOW)).toBeUndefined();
    expect(cache.get('sportsbook', 'k1', NOW)).toBeUndefined();
  });

  it('invalidate(kind) drops that kind only', () => {
    const cache = new PayloadCache();
    cache.put('events', 'e1', { e: 1 }, CHANGED_AT);
    cache.put('events', 'e2', { e: 2 }, CHANGED_AT);
    const s = cache.put('sportsbook', 'NBA', { s: 1 }, CHANGED_AT);
    const m = cache.put('metrics', 'broad', { m: 1 }, CHANGED_AT);
    cache.invalidate('events');
    expect(cache.get('events', 'e1', NOW)).toBeUndefined();
    expect(cache.get('events', 'e2', NOW)).toBeUndefined();
    expect(cache.get('sportsbook', 'NBA', NOW)).toBe(s);
    expect(cache.get('metrics', 'broad', NOW)).toBe(m);
    // invalidating a kind with nothing cached is harmless
    cache.invalidate('events');
    const e = cache.put('events', 'e1', { e: 3 }, CHANGED_AT);
    expect(cache.get('events', 'e1', NOW)).toBe(e);
  });

  it('invalidate(kind, key) drops the bodies of that snapshot and those built from any of the kind only', () => {
    const cache = new PayloadCache();
    const nba = cache.put('sportsbook', 'NBA:decimal', { s: 1 }, CHANGED_AT, undefined, 'NBA');
    cache.put('sportsbook', 'NFL:decimal', { s: 2 }, CHANGED_AT, undefined, 'NFL');
    cache.put('sportsbook', 'all-leagues', { s: 3 }, CHANGED_AT);
    const fx = cache.put('fx', 'rates', { r: 1 }, CHANGED_AT);
    cache.invalidate('sportsbook', 'NFL');
    expect(cache.get('sportsbook', 'NBA:decimal', NOW)).toBe(nba);
    expect(cache.get('sportsbook', 'NFL:decimal', NOW)).toBeUndefined();
    expect(cache.get('sportsbook', 'all-leagues', NOW)).toBeUndefined();
    expect(cache.get('fx', 'rates', NOW)).toBe(fx);
    // Bodies of a kind built from another kind go whichever of its snapshots changed.
    const m = cache.put('metrics', 'broad', { m: 1 }, CHANGED_AT, undefined, undefined, ['fx']);
    cache.invalidate('fx', 'daily');
    expect(cache.get('metrics', 'broad', NOW)).toBeUndefined();
    expect(m.snapshotKey).toBeUndefined();
  });

  it('honours expiresAt: served before it, rebuilt from it on', () => {
    const cache = new PayloadCache();
    const entry = cache.put('events', 'live', { t: 1 }, CHANGED_AT, 10_000);
    expect(cache.get('events', 'live', 9_999)).toBe(entry);
    expect(cache.get('events', 'live', 10_000)).toBeUndefined();
    expect(cache.get('events', 'live', 10_001)).toBeUndefined();
    // no expiresAt: never expires by time
    const forever = cache.put('events', 'still', { t: 2 }, CHANGED_AT);
    expect(cache.get('events', 'still', Number.MAX_SAFE_INTEGER)).toBe(forever);
  });

  it('getOrBuild builds a key once, serves the stored body after, and builds again once it expires', () => {
    const cache = new PayloadCache();
    const built: Array<[string, number]> = [];
    const build = (input: string, nowMs: number) => {
      built.push([input, nowMs]);
      return { payload: { input }, changedAt: CHANGED_AT, expiresAt: NOW + 1000 };
    };
    const first = cache.getOrBuild('events', 'k', NOW, build, 'a');
    expect(JSON.parse(first.body.toString())).toEqual({ input: 'a' });
    expect(cache.getOrBuild('events', 'k', NOW + 999, build, 'ignored on a hit')).toBe(first);
    expect(built).toEqual([['a', NOW]]);
    expect(cache.builds).toBe(1);
    const rebuilt = cache.getOrBuild('events', 'k', NOW + 1000, build, 'b');
    expect(rebuilt).not.toBe(first);
    expect(built).toEqual([
      ['a', NOW],
      ['b', NOW + 1000],
    ]);
  });

  it("getOrBuild with a variant's slot serves the slot's body until it expires or the cache drops it, then lets go of it", () => {
    const cache = new PayloadCache();
    const slot = new VariantKeys<CachedBody>(([v]) => `event|${String(v)}`).of(['a']);
    let builds = 0;
    const build = (input: string) => ({
      payload: { input, n: ++builds },
      changedAt: CHANGED_AT,
      expiresAt: NOW + 1000,
    });
    const first = cache.getOrBuild('events', slot, NOW, build, 'a');
    expect(slot.entry).toBe(first);
    expect(cache.getOrBuild('events', slot, NOW + 999, build, 'a')).toBe(first);
    // the same body under its key too: one entry, whichever way it is reached
    expect(cache.get('events', 'event|a', NOW)).toBe(first);
    const second = cache.getOrBuild('events', slot, NOW + 1000, build, 'a');
    expect(JSON.parse(second.body.toString())).toEqual({ input: 'a', n: 2 });
    cache.invalidate('events');
    expect(slot.entry).toBeUndefined(); // dropped with the data it was built from, not held on to
    expect(JSON.parse(cache.getOrBuild('events', slot, NOW + 1000, build, 'a').body.toString())).toEqual({
      input: 'a',
      n: 3,
    });
  });

  it('keeps a body served through its slot while a client walks thousands of new variants, and evicts the one nobody reads', () => {
    const cache = new PayloadCache();
    const keys = new VariantKeys<CachedBody>(([v]) => `metrics|${String(v)}`);
    const build = (input: string) => ({ payload: { input }, changedAt: CHANGED_AT });
    const [hot, cold] = [keys.of(['hot']), keys.of(['cold'])];
    const hotBody = cache.getOrBuild('metrics', hot, NOW, build, 'hot');
    cache.getOrBuild('metrics', cold, NOW, build, 'cold');
    // Ten thousand new variants (twice the kind's bound), the hot one read every hundred of them.
    for (let i = 0; i < 10_000; i++) {
      cache.getOrBuild('metrics', keys.of([`junk-${i}`]), NOW, build, `junk-${i}`);
      if (i % 100 === 0) expect(cache.getOrBuild('metrics', hot, NOW, build, 'hot')).toBe(hotBody);
    }
    expect(cache.get('metrics', 'metrics|hot', NOW)).toBe(hotBody);
    expect(cache.get('metrics', 'metrics|cold', NOW)).toBeUndefined();
    expect(cold.entry).toBeUndefined();
    expect(cache.builds).toBe(10_002);
  });

  it('getOrBuild stores nothing when the build throws, and the next call builds again', () => {
    const cache = new PayloadCache();
    const fail = () => {
      throw new Error('no such slug');
    };
    expect(() => cache.getOrBuild('events', 'k', NOW, fail, undefined)).toThrow('no such slug');
    expect(cache.get('events', 'k', NOW)).toBeUndefined();
    expect(cache.builds).toBe(0);
  });

  it('replacing a key replaces its entry', () => {
    const cache = new PayloadCache();
    cache.put('events', 'k', { v: 1 }, CHANGED_AT);
    const v2 = cache.put('events', 'k', { v: 2 }, CHANGED_AT);
    expect(cache.get('events', 'k', NOW)?.body.toString()).toBe('{"v":2}');
    expect(cache.get('events', 'k', NOW)).toBe(v2);
  });
});

/** A reply's header list as a record (names are unique in every reply). */
const headersOf = (r: Reply): Record<string, string> => {
  const list: HeaderList = r.headers ?? [];
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) out[String(list[i])] = String(list[i + 1]);
  return out;
};

describe('cachedReply', () => {
  const cache = new PayloadCache();
  // Large enough for compression to pay (a widget body is 1-4 KB).
  const payload = {
    hello: 'world',
    rows: Array.from({ length: 40 }, (_, i) => ({ operator: `op-${i % 4}`, price: `${50 + (i % 7)}¢` })),
  };
  const entry = cache.put('events', 'k', payload, CHANGED_AT);
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
    const fresh = cache.put('events', 'once', payload, CHANGED_AT);
    const first = cachedReply(req({ 'accept-encoding': 'br' }), fresh, shape);
    const second = cachedReply(req({ 'accept-encoding': 'gzip, br' }), fresh, shape);
    expect(second.body).toBe(first.body);
    expect(fresh.encoded.br).toBe(first.body);
    expect(fresh.encoded.gzip).toBeUndefined();
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
    const body = cache.put('events', 'two-shapes', payload, CHANGED_AT);
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
    const next = cache.put('events', 'k', { hello: 'there' }, '2026-11-22T14:01:00.000Z');
    const r = cachedReply(req({ 'if-none-match': entry.etag }), next, shape);
    expect(r.status).toBe(200);
    expect(headersOf(r).etag).toBe(next.etag);
    expect(headersOf(r)['last-modified']).toBe('Sun, 22 Nov 2026 14:01:00 GMT');
  });

  it('sends a body too small to gain uncompressed, with its plain tag', () => {
    const tiny = cache.put('events', 'tiny', { a: 1 }, CHANGED_AT);
    const r = cachedReply(req({ 'accept-encoding': 'br, gzip' }), tiny, shape);
    expect(headersOf(r)['content-encoding']).toBeUndefined();
    expect(headersOf(r).etag).toBe(tiny.etag);
    expect(Buffer.from(r.body!).toString()).toBe('{"a":1}');
  });

  it('sends a body shorter than one packet plain, though compression would shrink it, and compresses it from that length', () => {
    // A repetitive body that brotli shrinks at any length, one byte under the bound and at it.
    const sized = (n: number) =>
      cache.put('events', `sized-${n}`, { pad: 'a'.repeat(n - '{"pad":""}'.length) }, CHANGED_AT);
    const under = sized(MIN_COMPRESS_BYTES - 1);
    const at = sized(MIN_COMPRESS_BYTES);
    expect([under.body.length, at.body.length]).toEqual([MIN_COMPRESS_BYTES - 1, MIN_COMPRESS_BYTES]);
    expect(compress(under.body, 'br').length).toBeLessThan(under.body.length);
    const plain = cachedReply(req({ 'accept-encoding': 'br, gzip' }), under, shape);
    expect(headersOf(plain)['content-encoding']).toBeUndefined();
    expect(headersOf(plain).etag).toBe(under.etag);
    expect(under.encoded).toEqual({}); // not even compressed to find out
    expect(headersOf(cachedReply(req({ 'accept-encoding': 'br, gzip' }), at, shape))['content-encoding']).toBe('br');
  });
});
