/**
 * Operators' postback secrets against a real redis-server: shown once and derived, never stored;
 * a rotation overlaps both secrets until retire; a revoke stops them; an API process's keyring
 * verifies signatures from memory, follows every change through the channel, and remembers which
 * secret verified from which address (a failed-authentication block there is waived for it).
 */
import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostbackKeyring } from '../../src/auth/postback-keyring.js';
import { PostbackSecretError, PostbackSecrets, secretKey } from '../../src/auth/postback-secrets.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const PEPPER = 'pepper-for-tests-0123456789-abcdefghijklmnop';
const T1 = new Date('2026-11-22T14:00:00.000Z');
const T2 = new Date('2026-11-23T09:30:00.000Z');
const QUERY = 'operator=kalshi&click_id=x&event=registration&event_id=r-1';
let subscriber: Redis;
let store: PostbackSecrets;
let keyring: PostbackKeyring;

const sig = (secret: string, signed = QUERY) => createHmac('sha256', secret).update(signed).digest('hex');

/** A postback's check from an address that is not blocked, as the route makes it: a match, then taken. */
function verify(
  k: PostbackKeyring,
  operator: string,
  signed: string,
  signature: string,
  nowMs: number,
  address?: string,
) {
  const secretId = k.match(operator, signed, signature);
  if (secretId !== undefined) k.accept(operator, secretId, nowMs, address);
  return secretId !== undefined;
}

beforeAll(async () => {
  await redis.client.flushdb();
  subscriber = new Redis(redis.url);
  store = new PostbackSecrets(redis.client, PEPPER);
  keyring = new PostbackKeyring(new PostbackSecrets(redis.client, PEPPER), subscriber, pino({ level: 'silent' }));
  await keyring.start();
});

afterAll(() => {
  keyring.stop();
  subscriber.disconnect();
});

describe('postback secrets', () => {
  it('are shown once and never stored: Redis holds a nonce, the secret needs the pepper too', async () => {
    const secret = await store.create('kalshi', T1);
    expect(secret).toMatch(/^pwp_[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify(await redis.client.hgetall(secretKey('kalshi')));
    expect(stored).not.toContain(secret.slice(4));
    // The same nonce under another pepper is another secret.
    const nonce = (await redis.client.hget(secretKey('kalshi'), 'nonce'))!;
    expect(new PostbackSecrets(redis.client, `${PEPPER}x`).secretOf('kalshi', nonce)).not.toBe(secret);
    await expect(store.create('kalshi', T2)).rejects.toThrow(PostbackSecretError);
    await expect(store.create('Not An Id', T2)).rejects.toThrow(/operator id must match/);
  });

  it('a keyring verifies from memory, overlaps a rotation, and follows retire and revoke', async () => {
    const first = await store.create('polymarket', T1);
    await expect
      .poll(() => verify(keyring, 'polymarket', QUERY, sig(first), T1.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(true);
    expect(verify(keyring, 'polymarket', QUERY, sig(first, `${QUERY}&amount=1`), T1.getTime())).toBe(false);
    expect(verify(keyring, 'kalshi', QUERY, sig(first), T1.getTime())).toBe(false); // another operator's secret
    expect(verify(keyring, 'polymarket', QUERY, sig(first).toUpperCase(), T1.getTime())).toBe(false);
    expect(verify(keyring, 'nobody', QUERY, sig(first), T1.getTime())).toBe(false);

    const second = await store.rotate('polymarket', T2);
    await expect
      .poll(() => verify(keyring, 'polymarket', QUERY, sig(second), T2.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(true);
    expect(verify(keyring, 'polymarket', QUERY, sig(first), T2.getTime())).toBe(true);
    expect(await store.retire('polymarket')).toBe(true);
    await expect
      .poll(() => verify(keyring, 'polymarket', QUERY, sig(first), T2.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(false);
    expect(verify(keyring, 'polymarket', QUERY, sig(second), T2.getTime())).toBe(true);
    expect(await store.retire('polymarket')).toBe(false);

    await store.revoke('polymarket', T2);
    await expect
      .poll(() => verify(keyring, 'polymarket', QUERY, sig(second), T2.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(false);
    // A rotation reactivates with a new secret only.
    const third = await store.rotate('polymarket', T2);
    await expect
      .poll(() => verify(keyring, 'polymarket', QUERY, sig(third), T2.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(true);
    expect(verify(keyring, 'polymarket', QUERY, sig(second), T2.getTime())).toBe(false);
  });

  it('remembers which secret verified from which address, so a block there is waived for that secret alone', async () => {
    const waiving = new PostbackKeyring(
      new PostbackSecrets(redis.client, PEPPER),
      subscriber,
      pino({ level: 'silent' }),
      { fromAddressSeconds: 120 },
    );
    await waiving.start();
    try {
      const old = await store.create('fanduel', T1);
      await expect
        .poll(() => verify(waiving, 'fanduel', QUERY, sig(old), T1.getTime(), '81.2.69.1'), {
          timeout: 1_000,
          interval: 10,
        })
        .toBe(true);
      // The secrets' ids are what verifiedFrom answers with (the route takes the postback under it).
      const idOf = (secret: string) => waiving.match('fanduel', QUERY, sig(secret));
      const oldId = idOf(old);
      expect(oldId).toMatch(/^[0-9a-f]{12}$/);
      expect(waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(old))).toBe(oldId);
      // Another address, another operator, or a signature the secret did not make: nothing to waive.
      expect(waiving.verifiedFrom('81.2.69.2', 'fanduel', QUERY, sig(old))).toBeUndefined();
      expect(waiving.verifiedFrom('81.2.69.1', 'kalshi', QUERY, sig(old))).toBeUndefined();
      expect(waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(old, `${QUERY}&amount=1`))).toBeUndefined();
      // A new secret that never verified from there is not waived by the old one's record; once it has, it is.
      const fresh = await store.rotate('fanduel', T2);
      await expect
        .poll(() => verify(waiving, 'fanduel', QUERY, sig(fresh), T2.getTime()), { timeout: 1_000, interval: 10 })
        .toBe(true);
      const freshId = idOf(fresh);
      expect(freshId).toMatch(/^[0-9a-f]{12}$/);
      expect(freshId).not.toBe(oldId);
      expect(waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(fresh))).toBeUndefined();
      expect(verify(waiving, 'fanduel', QUERY, sig(fresh), T2.getTime(), '81.2.69.1')).toBe(true);
      expect(waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(fresh))).toBe(freshId);
      // A retired secret waives nothing, though it verified from there.
      expect(await store.retire('fanduel')).toBe(true);
      await expect
        .poll(() => waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(old)), { timeout: 1_000, interval: 10 })
        .toBeUndefined();
      expect(waiving.verifiedFrom('81.2.69.1', 'fanduel', QUERY, sig(fresh))).toBe(freshId);
    } finally {
      waiving.stop();
    }
  });

  it('lists each operator with its live secrets and when each was last used', async () => {
    const secret = await store.create('draftkings', T1);
    await expect
      .poll(() => verify(keyring, 'draftkings', QUERY, sig(secret), T2.getTime()), { timeout: 1_000, interval: 10 })
      .toBe(true);
    const secretId = expect.stringMatching(/^[0-9a-f]{12}$/);
    await expect
      .poll(async () => (await store.list()).find((o) => o.operatorId === 'draftkings'), {
        timeout: 1_000,
        interval: 10,
      })
      .toEqual({
        operatorId: 'draftkings',
        status: 'active',
        createdAt: T1.toISOString(),
        secrets: [{ secretId, createdAt: T1.toISOString(), lastUsedAt: T2.toISOString() }],
      });
    await store.rotate('draftkings', T2);
    const listed = (await store.list()).find((o) => o.operatorId === 'draftkings')!;
    expect(listed.rotatedAt).toBe(T2.toISOString());
    expect(listed.secrets.map((s) => s.createdAt)).toEqual([T2.toISOString(), T1.toISOString()]);
    await expect(store.rotate('nobody', T2)).rejects.toThrow(/has no postback secret/);
    await expect(store.revoke('nobody', T2)).rejects.toThrow(/has no postback secret/);
  });
});
