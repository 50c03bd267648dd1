/**
 * Rate limits against a real redis-server: shared between limiter instances (as between API
 * processes), and still enforced from memory while the connection is down.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { RateLimits } from '../../src/limits/rate-limits.js';
import { connectRedis, connectRedisFailFast, whenReady } from '../../src/store/redis.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
let a: Redis;
let b: Redis;
const limits = () =>
  loadConfig({
    REDIS_URL: redis.url,
    RATE_LIMIT_CLICK: '3/60',
    RATE_LIMIT_ADVERTISER: '5/60',
    AUTH_FAILURE_LIMIT: '2/60',
    AUTH_FAILURE_BLOCK_SECONDS: '600',
  }).limits;

beforeAll(async () => {
  const log = pino({ level: 'silent' });
  a = connectRedisFailFast({ url: redis.url }, 'test-a', log, 300);
  b = connectRedisFailFast({ url: redis.url }, 'test-b', log, 300);
  await Promise.all([whenReady(a), whenReady(b)]);
});

afterAll(() => {
  a.disconnect();
  b.disconnect();
});

describe('RateLimits', () => {
  it('two processes share one allowance through Redis', async () => {
    const [one, two] = [new RateLimits(a, limits()), new RateLimits(b, limits())];
    expect(await one.take('click', '198.51.100.1')).toBeUndefined();
    expect(await two.take('click', '198.51.100.1')).toBeUndefined();
    expect(await one.take('click', '198.51.100.1')).toBeUndefined();
    const refused = await two.take('click', '198.51.100.1');
    expect(refused?.status).toBe(429);
    expect(refused?.headers['ratelimit-policy']).toBe('"click";q=3;w=60');
    expect(await redis.client.get('pw:rl:click:198.51.100.1')).toBe('4');
    expect(await one.take('click', '198.51.100.2')).toBeUndefined();
  });

  it('blocked() reports an address past its failure allowance for the whole block, without taking a point', async () => {
    const rl = new RateLimits(a, limits());
    expect(await rl.take('auth_failures', '198.51.100.9')).toBeUndefined();
    expect(await rl.take('auth_failures', '198.51.100.9')).toBeUndefined();
    expect(await rl.blocked('auth_failures', '198.51.100.9')).toBeUndefined();
    expect((await rl.take('auth_failures', '198.51.100.9'))?.status).toBe(429);
    const blocked = await rl.blocked('auth_failures', '198.51.100.9');
    expect(Number(blocked?.headers['retry-after'])).toBeGreaterThan(500);
    expect(await redis.client.ttl('pw:rl:auth_failures:198.51.100.9')).toBeGreaterThan(500);
  });

  it('charges are summed per key and taken in one batch; a key that runs out is blocked in memory on every process', async () => {
    const log = pino({ level: 'silent' });
    const subA = connectRedis({ url: redis.url }, 'sub-a', log);
    const subB = connectRedis({ url: redis.url }, 'sub-b', log);
    const [one, two] = [new RateLimits(a, limits()), new RateLimits(b, limits())];
    try {
      await Promise.all([one.start(subA), two.start(subB)]);
      expect(one.anyBlocked).toBe(false);
      for (let i = 0; i < 4; i++) one.charge('advertiser', 'acme');
      // Nothing taken yet: the charges wait for the batch.
      expect(await redis.client.get('pw:rl:advertiser:acme')).toBeNull();
      await expect.poll(() => redis.client.get('pw:rl:advertiser:acme')).toBe('4');
      expect(one.blockedNow('advertiser', 'acme', Date.now())).toBeUndefined();
      // The fifth point uses up 5/60: blocked at once, since a sixth request would be served before it is charged.
      one.charge('advertiser', 'acme');
      await expect.poll(() => one.blockedNow('advertiser', 'acme', Date.now())?.status).toBe(429);
      // The other process learns of it without taking a point itself.
      await expect.poll(() => two.blockedNow('advertiser', 'acme', Date.now())?.status).toBe(429);
      const problem = two.blockedNow('advertiser', 'acme', Date.now())!;
      expect(problem.headers['ratelimit-policy']).toBe('"advertiser";q=5;w=60');
      expect(Number(problem.headers['retry-after'])).toBeGreaterThan(50);
      expect(two.blockedNow('advertiser', 'someone-else', Date.now())).toBeUndefined();
      expect(await redis.client.get('pw:rl:advertiser:acme')).toBe('5');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
      subA.disconnect();
      subB.disconnect();
    }
  });

  it('stop() takes what is still charged', async () => {
    const rl = new RateLimits(a, limits());
    rl.charge('advertiser', 'stopping');
    rl.charge('advertiser', 'stopping');
    await rl.stop();
    expect(await redis.client.get('pw:rl:advertiser:stopping')).toBe('2');
  });

  it('with Redis unreachable the in-memory limiter of the same size answers at once', async () => {
    const rl = new RateLimits(b, limits());
    b.disconnect(); // no reconnect
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await rl.take('click', '198.51.100.20'))?.status ?? 'ok');
    expect(answers).toEqual(['ok', 'ok', 'ok', 429]);
  });
});
