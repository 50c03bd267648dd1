/**
 * Cached advertiser key checks against a real redis-server: a success is reused, a revoke or
 * rotate announced on the channel ends it, and the registered ids follow creates and revokes; a key
 * known good stays so through a reconnect, while Redis cannot answer, until Redis itself says no.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvertiserKeys } from '../../src/auth/advertiser-keys.js';
import { VerifiedKeys } from '../../src/auth/verified-keys.js';
import { connectRedisFailFast, whenReady } from '../../src/store/redis.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const PEPPER = 'pepper-for-tests-0123456789-abcdefghijklmnop';
const NOW = new Date('2026-11-22T14:00:00.000Z');
let subscriber: Redis;
let verified: VerifiedKeys;
let admin: AdvertiserKeys;

beforeAll(async () => {
  await redis.client.flushdb();
  subscriber = new Redis(redis.url);
  admin = new AdvertiserKeys(redis.client, PEPPER);
  verified = new VerifiedKeys(new AdvertiserKeys(redis.client, PEPPER), subscriber, 60, pino({ level: 'silent' }));
  await admin.create('before-start', 'Before', NOW);
  await verified.start();
});

afterAll(() => {
  verified.stop();
  subscriber.disconnect();
});

describe('VerifiedKeys', () => {
  it('reuses a successful check, and drops it when the key is revoked', async () => {
    const key = await admin.create('cached-adv', 'Cached', NOW);
    // (a check racing the create's own notice is not cached: wait for the notice first)
    await expect.poll(() => verified.isRegistered('cached-adv'), { timeout: 1_000, interval: 10 }).toBe(true);
    expect(await verified.verify('cached-adv', key)).toBe(true);
    // Changed behind its back (no notice): the cached success still stands, without Redis.
    await redis.client.hset('pw:adv:cached-adv', 'status', 'revoked');
    expect(await verified.verify('cached-adv', key)).toBe(true);
    expect(await verified.verify('cached-adv', `${key.slice(0, -1)}x`)).toBe(false);
    // Through the CLI's path the notice goes out and the cache entry goes with it.
    await admin.revoke('cached-adv', NOW);
    await expect.poll(() => verified.verify('cached-adv', key), { timeout: 1_000, interval: 10 }).toBe(false);
  });

  it('a rotation overlaps both keys; retiring the old one drops it from the cache', async () => {
    const old = await admin.create('rotating-adv', 'Rotating', NOW);
    await expect.poll(() => verified.isRegistered('rotating-adv'), { timeout: 1_000, interval: 10 }).toBe(true);
    expect(await verified.verify('rotating-adv', old)).toBe(true);
    const fresh = await admin.rotate('rotating-adv', NOW);
    expect(await verified.verify('rotating-adv', fresh)).toBe(true);
    expect(await verified.verify('rotating-adv', old)).toBe(true);
    expect(await admin.retire('rotating-adv', NOW)).toBe(true);
    await expect.poll(() => verified.verify('rotating-adv', old), { timeout: 1_000, interval: 10 }).toBe(false);
    expect(await verified.verify('rotating-adv', fresh)).toBe(true);
  });

  it('knows the registered advertisers from memory, following creates and revokes', async () => {
    expect(verified.isRegistered('before-start')).toBe(true);
    expect(verified.isRegistered('never-created')).toBe(false);
    await admin.create('late-adv', 'Late', NOW);
    await expect.poll(() => verified.isRegistered('late-adv'), { timeout: 1_000, interval: 10 }).toBe(true);
    await admin.revoke('late-adv', NOW);
    await expect.poll(() => verified.isRegistered('late-adv'), { timeout: 1_000, interval: 10 }).toBe(false);
  });

  it('keeps a key known good through a reconnect while Redis cannot answer, until Redis itself says no', async () => {
    const log = pino({ level: 'silent' });
    const conn = connectRedisFailFast({ url: redis.url }, 'test-keys', log, 300);
    const sub = new Redis(redis.url);
    const outage = new VerifiedKeys(new AdvertiserKeys(conn, PEPPER), sub, 0, log, { outageGraceSeconds: 60 });
    try {
      await whenReady(conn);
      await outage.start();
      const key = await admin.create('outage-adv', 'Outage', NOW);
      await expect.poll(() => outage.isRegistered('outage-adv'), { timeout: 1_000, interval: 10 }).toBe(true); // the create's notice is in
      expect(await outage.verify('outage-adv', key)).toBe(true);
      // The subscription reconnects (notices may have been missed): cached checks go, the outage list stays.
      const reconnected = new Promise((r) => sub.once('ready', r));
      sub.disconnect(true);
      await reconnected;
      conn.disconnect(); // and Redis cannot answer checks
      expect(await outage.verify('outage-adv', key)).toBe(true);
      await expect(outage.verify('outage-adv', `${key.slice(0, -1)}x`)).rejects.toThrow();

      // Revoked behind its back (no notice): the first answer from Redis ends it.
      if (conn.status !== 'end') await new Promise((r) => conn.once('end', r));
      await conn.connect();
      await redis.client.hset('pw:adv:outage-adv', 'status', 'revoked');
      expect(await outage.verify('outage-adv', key)).toBe(false);
      conn.disconnect();
      await expect(outage.verify('outage-adv', key)).rejects.toThrow();
    } finally {
      outage.stop();
      conn.disconnect();
      sub.disconnect();
    }
  });
});
