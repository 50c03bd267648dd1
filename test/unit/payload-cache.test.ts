import { describe, expect, it } from 'vitest';
import { PayloadCache, type CachedBody } from '../../src/serve/payload-cache.js';
import { VariantKeys } from '../../src/serve/variant-keys.js';

const CHANGED_AT = '2026-11-22T14:00:00.000Z';
const NOW = Date.parse('2026-11-22T14:00:05.000Z');

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
    cache.put('metrics', 'broad', { m: 1 }, CHANGED_AT, undefined, undefined, ['fx']);
    cache.invalidate('fx', 'daily');
    expect(cache.get('metrics', 'broad', NOW)).toBeUndefined();
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
    expect(slot.entry?.representation).toBe(first);
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
