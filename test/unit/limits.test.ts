/** Pure pieces of the limits: address keys, request ids, the 429 problem, limit settings. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/config-error.js';
import { addressKey } from '../../src/geo/address-key.js';
import { parseIp } from '../../src/geo/ip.js';
import { rateLimited } from '../../src/limits/rate-limits.js';
import { givenRequestId, nextRequestNumber, requestIdBytes, requestIdText } from '../../src/transport/request-id.js';

describe('addressKey', () => {
  it('keeps an IPv4 address, and folds IPv6 into its /64', () => {
    expect(addressKey(parseIp('203.0.113.7'))).toBe('203.0.113.7');
    expect(addressKey(parseIp('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    expect(addressKey(parseIp('2001:db8:1:2::1'))).toBe('2001:db8:1:2::/64');
    expect(addressKey(parseIp('2001:db8:1:2:ffff:ffff:ffff:ffff'))).toBe('2001:db8:1:2::/64');
    expect(addressKey(parseIp('2001:db8:1:3::1'))).not.toBe(addressKey(parseIp('2001:db8:1:2::1')));
    expect(addressKey(undefined)).toBe('unknown');
  });
});

describe('request ids', () => {
  it('keeps a short plain id and refuses anything else', () => {
    expect(givenRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const given of [undefined, '', 'has space', 'x'.repeat(129), 'a\nb', '<script>'])
      expect(givenRequestId(given)).toBeUndefined();
  });

  it('numbers the others with unique ids whose bytes are their text, at every digit count', () => {
    const made = [1, 2, 3].map(() => requestIdText(nextRequestNumber()));
    for (const id of made) expect(id).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    expect(new Set(made).size).toBe(made.length);
    for (const n of [0, 1, 35, 36, 1295, 1296, 123_456_789, Number.MAX_SAFE_INTEGER - 1]) {
      expect(Buffer.from(requestIdBytes(n)).toString('latin1')).toBe(requestIdText(n));
    }
  });
});

describe('rateLimited', () => {
  it('is the rate_limited problem with Retry-After in whole seconds and the IETF RateLimit headers', () => {
    const p = rateLimited('click', { points: 60, seconds: 60 }, 12_300);
    expect(p.status).toBe(429);
    expect(p.code).toBe('rate_limited');
    expect(p.headers).toEqual({
      'retry-after': '13',
      'ratelimit-policy': '"click";q=60;w=60',
      ratelimit: '"click";r=0;t=13',
    });
    expect(rateLimited('click', { points: 1, seconds: 1 }, 0).headers['retry-after']).toBe('1');
  });
});

describe('limit settings', () => {
  const REDIS = 'redis://127.0.0.1:6399';
  it('have documented defaults and read points/seconds', () => {
    const c = loadConfig({ REDIS_URL: REDIS });
    expect(c.limits.click).toEqual({ points: 60, seconds: 60 });
    expect(c.limits.authFailures).toEqual({ points: 10, seconds: 60 });
    expect(c.limits.wsPerAddress).toBe(20);
    expect(c.drainSeconds).toBe(0);
    expect(
      loadConfig({
        REDIS_URL: REDIS,
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: 'https://widgets.example.com',
        CLICK_SIGNING_SECRET: 'x'.repeat(32),
        API_KEY_PEPPER: 'y'.repeat(32),
      }).drainSeconds,
    ).toBe(5);
    expect(loadConfig({ REDIS_URL: REDIS, RATE_LIMIT_CLICK: '5/10' }).limits.click).toEqual({ points: 5, seconds: 10 });
  });

  it.each(['60', '0/60', '60/0', 'many/60', '60/60/60'])('refuse RATE_LIMIT_CLICK=%s, naming it', (value) => {
    expect(() => loadConfig({ REDIS_URL: REDIS, RATE_LIMIT_CLICK: value })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: REDIS, RATE_LIMIT_CLICK: value })).toThrow(
      /RATE_LIMIT_CLICK: must be points\/seconds/,
    );
  });
});
