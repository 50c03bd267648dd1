import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/config-error.js';
import { AddressMatcher, invalidRanges, parseCidr } from '../../src/geo/cidr.js';
import { clientAddress } from '../../src/geo/client-address.js';
import { parseJurisdiction } from '../../src/geo/jurisdiction-code.js';
import { LocationDb } from '../../src/geo/location-db.js';
import { SUBDIVIDED_COUNTRIES, subdivisionByCode, subdivisionByName } from '../../src/geo/subdivisions.js';
import { isCountryCode } from '../../src/geo/countries.js';
import { parseForwardedEntry, parseIp, type IpAddress } from '../../src/geo/ip.js';
import { isNonPublic } from '../../src/geo/reserved.js';
import { GeoResolver } from '../../src/geo/resolver.js';

const ip = (s: string): IpAddress => {
  const parsed = parseIp(s);
  if (!parsed) throw new Error(`not an ip: ${s}`);
  return parsed;
};

describe('parseIp', () => {
  it('reads IPv4 and IPv6, unwrapping IPv4-mapped addresses in every spelling', () => {
    expect(parseIp('8.8.8.8')).toEqual({ version: 4, bytes: Uint8Array.from([8, 8, 8, 8]), text: '8.8.8.8' });
    expect(parseIp('::ffff:8.8.8.8')?.text).toBe('8.8.8.8');
    expect(parseIp('::FFFF:808:808')?.text).toBe('8.8.8.8');
    // what uWebSockets.js reports for an IPv4 peer on a dual-stack socket
    expect(parseIp('0000:0000:0000:0000:0000:ffff:7f00:0001')).toMatchObject({ version: 4, text: '127.0.0.1' });
    const v6 = parseIp('2001:4860:4860::8888')!;
    expect(v6.version).toBe(6);
    expect([...v6.bytes]).toEqual([0x20, 0x01, 0x48, 0x60, 0x48, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x88]);
    expect(parseIp('[2001:db8::1]')?.version).toBe(6);
    expect(parseIp('fe80::1%eth0')?.text).toBe('fe80::1');
  });

  it.each(['', 'localhost', '1.2.3', '256.1.1.1', '1.2.3.4:80', '2001:db8::1::2', 'unknown', '01.2.3.4'])(
    'refuses %j',
    (s) => {
      expect(parseIp(s)).toBeUndefined();
    },
  );

  it('reads forwarded entries with ports', () => {
    expect(parseForwardedEntry(' 203.0.113.7:41234 ')?.text).toBe('203.0.113.7');
    expect(parseForwardedEntry('[2001:db8::1]:443')?.version).toBe(6);
    expect(parseForwardedEntry('_hidden')).toBeUndefined();
  });
});

describe('CIDR ranges', () => {
  it('matches addresses inside the prefix only', () => {
    const m = new AddressMatcher(['10.1.0.0/16', '192.0.2.7', '2001:db8:abcd::/48', '::ffff:172.16.0.0/108']);
    expect(m.matches(ip('10.1.255.255'))).toBe(true);
    expect(m.matches(ip('10.2.0.0'))).toBe(false);
    expect(m.matches(ip('192.0.2.7'))).toBe(true);
    expect(m.matches(ip('192.0.2.8'))).toBe(false);
    expect(m.matches(ip('2001:db8:abcd:12::1'))).toBe(true);
    expect(m.matches(ip('2001:db8:abce::1'))).toBe(false);
    // a mapped range is an IPv4 range: 108 - 96 = /12
    expect(m.matches(ip('172.31.0.1'))).toBe(true);
    expect(m.matches(ip('::ffff:10.1.2.3'))).toBe(true);
    expect(parseCidr('10.0.0.0/7')?.prefix).toBe(7);
    expect(m.matches(ip('0.0.0.0'))).toBe(false);
  });

  it('reports malformed entries', () => {
    expect(
      invalidRanges([
        '10.0.0.0/8',
        '10.0.0.0/33',
        'proxy.local',
        '1.2.3.4/x',
        '::/129',
        '::ffff:1.2.3.4/64',
        '2001:db8::/32',
      ]),
    ).toEqual(['10.0.0.0/33', 'proxy.local', '1.2.3.4/x', '::/129', '::ffff:1.2.3.4/64']);
  });

  it('TRUST_PROXY is validated at start-up, naming the variable and the bad entries', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399', TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    let message = '';
    try {
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399', TRUST_PROXY: '10.0.0.0/8,10.0.0.0/40,lb.internal' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('TRUST_PROXY');
    expect(message).toContain('10.0.0.0/40');
    expect(message).toContain('lb.internal');
  });
});

describe('reserved ranges', () => {
  it.each([
    '127.0.0.1',
    '10.3.4.5',
    '172.20.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '224.0.0.1',
    '198.51.100.4',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '2001:db8::5',
    'ff02::1',
    '::ffff:192.168.0.1',
  ])('%s is not public', (s) => expect(isNonPublic(ip(s))).toBe(true));
  it.each(['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'])('%s is public', (s) => {
    expect(isNonPublic(ip(s))).toBe(false);
  });
});

describe('clientAddress', () => {
  const none = new AddressMatcher([]);
  const proxies = new AddressMatcher(['10.0.0.0/8', '2001:db8:1::/48']);

  it('uses the socket peer and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientAddress('203.0.113.9', '8.8.8.8', none)?.text).toBe('203.0.113.9');
  });

  it('ignores a forged header from an untrusted peer even when proxies are configured', () => {
    expect(clientAddress('81.2.69.142', '8.8.8.8', proxies)?.text).toBe('81.2.69.142');
  });

  it('walks a trusted chain right to left to the first untrusted hop', () => {
    // client-written garbage and a forged address on the left are never reached
    expect(clientAddress('10.0.0.2', 'forged, 1.1.1.1, 81.2.69.142, 10.0.0.7', proxies)?.text).toBe('81.2.69.142');
    expect(clientAddress('::ffff:10.0.0.2', '8.8.8.8:5555', proxies)?.text).toBe('8.8.8.8');
    expect(clientAddress('2001:db8:1::5', '[2a00:1450:4001:80b::200e]:443, 2001:db8:1::9', proxies)?.text).toBe(
      '2a00:1450:4001:80b::200e',
    );
  });

  it('stops at a malformed hop written by a trusted proxy, and stays with the leftmost trusted one', () => {
    expect(clientAddress('10.0.0.2', '81.2.69.142, garbage', proxies)).toBeUndefined();
    expect(clientAddress('10.0.0.2', '10.0.0.9, 10.0.0.8', proxies)?.text).toBe('10.0.0.9');
    expect(clientAddress('10.0.0.2', undefined, proxies)?.text).toBe('10.0.0.2');
  });
});

describe('location database and resolver', () => {
  let db: LocationDb;
  beforeAll(async () => {
    db = await LocationDb.open();
  });

  it('looks up public IPv4 and IPv6 addresses (expected countries read from the database itself)', () => {
    const cases = ['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'];
    for (const c of cases) {
      const country = db.locate(ip(c))?.country;
      expect(country, c).toMatch(/^[A-Z]{2}$/);
      expect(isCountryCode(country!)).toBe(true);
    }
    expect(db.locate(ip('8.8.8.8'))?.country).toBe('US');
    // the mapped form of an address resolves like the address
    expect(db.locate(ip('::ffff:8.8.8.8'))).toEqual(db.locate(ip('8.8.8.8')));
  });

  it('maps every US and Canadian subdivision name the database uses to its ISO 3166-2 code', () => {
    // A sample of the database's own records: each name it gives in the US and Canada is known.
    const seen = new Set<string>();
    for (let a = 1; a < 224; a += 1) {
      for (let b = 0; b < 256; b += 17) {
        const found = db.locate(ip(`${a}.${b}.7.9`));
        if (found?.subdivisionName && SUBDIVIDED_COUNTRIES.has(found.country)) {
          const code = subdivisionByName(found.country, found.subdivisionName);
          expect(code, `${found.country} ${found.subdivisionName}`).toBeDefined();
          seen.add(code!);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(40);
    expect(subdivisionByName('US', 'New Jersey')).toBe('US-NJ');
    expect(subdivisionByName('CA', 'Ontario')).toBe('CA-ON');
    expect(subdivisionByCode('US', 'nj')).toBe('US-NJ');
    expect(subdivisionByCode('US', 'ZZ')).toBeUndefined();
  });

  it('resolves IP first, then fallback_geo, then DEFAULT_GEO, then ZZ, with the region where licensing is regional', () => {
    const withDefault = new GeoResolver(db, [], 'IE');
    const without = new GeoResolver(db, [], undefined);
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ remoteAddress, headers });
    const expected = (addr: string) => {
      const found = db.locate(ip(addr))!;
      return found.country === 'US' || found.country === 'CA'
        ? subdivisionByName(found.country, found.subdivisionName!)!
        : found.country;
    };
    // 8.8.8.8 lies in a US state: the jurisdiction is the state
    expect(without.resolve(req('8.8.8.8'), 'GB')).toEqual({ jurisdiction: expected('8.8.8.8'), source: 'ip' });
    expect(expected('8.8.8.8')).toMatch(/^US-[A-Z]{2}$/);
    // outside the US and Canada the region is dropped: the rules are national
    expect(without.resolve(req('81.2.69.142'))).toEqual({ jurisdiction: 'GB', source: 'ip' });
    const v6 = expected('2a00:1450:4001:80b::200e');
    expect(without.resolve(req('2a00:1450:4001:80b::200e'))).toEqual({ jurisdiction: v6, source: 'ip' });
    for (const local of ['127.0.0.1', '::1', '10.1.1.1', '0000:0000:0000:0000:0000:ffff:7f00:0001', 'not-an-ip']) {
      expect(without.resolve(req(local), 'CA-ON')).toEqual({ jurisdiction: 'CA-ON', source: 'fallback_geo' });
      expect(withDefault.resolve(req(local))).toEqual({ jurisdiction: 'IE', source: 'default_geo' });
      expect(without.resolve(req(local))).toEqual({ jurisdiction: 'ZZ', source: 'unknown' });
    }
  });

  it('believes X-Forwarded-For only through TRUST_PROXY', () => {
    const trusting = new GeoResolver(db, ['127.0.0.1'], undefined);
    const plain = new GeoResolver(db, [], undefined);
    const forged = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '81.2.69.142' } };
    expect(plain.resolve(forged, 'DE')).toEqual({ jurisdiction: 'DE', source: 'fallback_geo' });
    expect(trusting.resolve(forged, 'DE')).toEqual({ jurisdiction: 'GB', source: 'ip' });
    const fromOutside = { remoteAddress: '81.2.69.142', headers: { 'x-forwarded-for': '8.8.8.8' } };
    expect(trusting.resolve(fromOutside).jurisdiction).toBe('GB');
  });

  it("believes a CDN's geo headers only from TRUST_PROXY peers, and only the configured CDN's", () => {
    const cloudfront = new GeoResolver(db, ['127.0.0.1'], undefined, 'cloudfront');
    const headers = {
      'cloudfront-viewer-country': 'US',
      'cloudfront-viewer-country-region': 'NJ',
      'x-forwarded-for': '81.2.69.142',
    };
    expect(cloudfront.resolve({ remoteAddress: '127.0.0.1', headers })).toEqual({
      jurisdiction: 'US-NJ',
      source: 'cdn',
    });
    expect(cloudfront.headerNames).toEqual(['cloudfront-viewer-country', 'cloudfront-viewer-country-region']);
    // from an untrusted peer the headers are ignored (the address decides)
    expect(cloudfront.resolve({ remoteAddress: '81.2.69.142', headers }).jurisdiction).toBe('GB');
    // an unknown subdivision keeps the country; a subdivision outside the US and Canada is dropped
    expect(
      cloudfront.resolve({
        remoteAddress: '127.0.0.1',
        headers: { 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'XX' },
      }),
    ).toEqual({
      jurisdiction: 'US',
      source: 'cdn',
    });
    expect(
      cloudfront.resolve({
        remoteAddress: '127.0.0.1',
        headers: { 'cloudfront-viewer-country': 'GB', 'cloudfront-viewer-country-region': 'ENG' },
      }),
    ).toEqual({
      jurisdiction: 'GB',
      source: 'cdn',
    });
    // Cloudflare's non-countries (XX, T1) place no one: the address, then fallback_geo, decide
    const cloudflare = new GeoResolver(db, ['127.0.0.1'], undefined, 'cloudflare');
    expect(cloudflare.resolve({ remoteAddress: '127.0.0.1', headers: { 'cf-ipcountry': 'T1' } }, 'BR')).toEqual({
      jurisdiction: 'BR',
      source: 'fallback_geo',
    });
    expect(
      cloudflare.resolve({ remoteAddress: '127.0.0.1', headers: { 'cf-ipcountry': 'CA', 'cf-region-code': 'ON' } }),
    ).toEqual({ jurisdiction: 'CA-ON', source: 'cdn' });
    // without TRUST_PROXY no CDN header is read at all
    expect(new GeoResolver(db, [], undefined, 'cloudflare').headerNames).toEqual([]);
  });
});

describe('jurisdiction codes', () => {
  it('accepts countries, ZZ and ISO 3166-2 codes, keeping the region only where licences are regional', () => {
    expect(['GB', 'ZZ', 'US', 'US-NJ', 'CA-ON', 'GB-ENG', 'JP-13', 'XK'].map(parseJurisdiction)).toEqual([
      'GB',
      'ZZ',
      'US',
      'US-NJ',
      'CA-ON',
      'GB',
      'JP',
      'XK',
    ]);
    for (const bad of ['gb', 'UK', 'US-XX', 'US-', 'US-NJX', 'CA-ZZ', 'GB-ENGLAND', 'XX', ''])
      expect(parseJurisdiction(bad), bad).toBeUndefined();
  });
});
