import { describe, expect, it } from 'vitest';
import { sharedCacheControl, shapeFor, widgetShapes } from '../../src/http/cache-policy.js';
import type { GeoResult } from '../../src/geo/resolver.js';

const directives = (cc: string) =>
  Object.fromEntries(cc.split(', ').map((d) => d.split('=') as [string, string | undefined]));
const headers = (list: readonly string[]) =>
  Object.fromEntries(list.flatMap((v, i) => (i % 2 === 0 ? [[v, list[i + 1]]] : [])));

describe('sharedCacheControl', () => {
  it.each([1, 5, 60, 2.5])(
    'a refresh of %s s: fresh for one refresh, stale one more while revalidating, long through errors',
    (refresh) => {
      const d = directives(sharedCacheControl(refresh, 5));
      const whole = Math.ceil(refresh);
      expect(Object.keys(d)[0]).toBe('public');
      expect(Number(d['s-maxage'])).toBe(whole);
      expect(Number(d['stale-while-revalidate'])).toBe(whole);
      expect(Number(d['stale-if-error'])).toBeGreaterThanOrEqual(Math.max(60, 10 * whole));
      // browsers never keep a body past the data's refresh
      expect(Number(d['max-age'])).toBe(Math.min(5, whole));
    },
  );
});

describe('widgetShapes', () => {
  const cdnGeo: GeoResult = { jurisdiction: 'US-NJ', source: 'cdn' };
  const ipGeo: GeoResult = { jurisdiction: 'US-NJ', source: 'ip' };

  it('with a trusted CDN: shared replies vary on its geo headers; a jurisdiction from elsewhere stays private', () => {
    const shapes = widgetShapes({
      authenticated: false,
      cdn: 'cloudfront',
      refreshSeconds: 5,
      browserMaxAge: 5,
      vary: ['Accept-Language'],
    });
    const shared = headers(shapeFor(shapes, cdnGeo).headers);
    expect(shared.vary).toBe(
      'cloudfront-viewer-country, cloudfront-viewer-country-region, Accept-Language, Accept-Encoding',
    );
    expect(shared['cache-control']).toMatch(/^public, .*s-maxage=5/);
    const priv = headers(shapeFor(shapes, ipGeo).headers);
    expect(priv['cache-control']).toBe('private, max-age=5');
    expect(priv.vary).toBe('Accept-Language, Accept-Encoding');
  });

  it('without a CDN, and on advertiser routes, every reply is private', () => {
    expect(
      widgetShapes({ authenticated: false, cdn: undefined, refreshSeconds: 5, browserMaxAge: 5, vary: [] }).shared,
    ).toBeUndefined();
    const adv = widgetShapes({
      authenticated: true,
      cdn: 'cloudflare',
      refreshSeconds: 5,
      browserMaxAge: 5,
      vary: ['X-Advertiser-Id'],
    });
    expect(adv.shared).toBeUndefined();
    expect(headers(shapeFor(adv, cdnGeo).headers)['cache-control']).toBe('private, max-age=5');
  });
});
