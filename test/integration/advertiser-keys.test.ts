import { beforeEach, describe, expect, it } from 'vitest';
import { AdvertiserError, AdvertiserKeys, generateApiKey } from '../../src/auth/advertiser-keys.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const PEPPER = 'pepper-for-tests-0123456789-abcdefghijklmnop';
const T1 = new Date('2026-11-22T14:00:00.000Z');
const T2 = new Date('2026-11-23T09:30:00.000Z');
const T3 = new Date('2026-11-24T18:15:00.000Z');

const KEY_SHAPE = /^pwk_[A-Za-z0-9_-]{43}$/;

/** Every key and every stored value (strings, hash fields and values, set members, list items). */
async function dumpRedis(): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.client.scan(cursor, 'COUNT', 100);
    cursor = next;
    for (const key of keys) {
      out.push(key);
      const type = await redis.client.type(key);
      if (type === 'string') out.push((await redis.client.get(key)) ?? '');
      else if (type === 'hash') out.push(...Object.entries(await redis.client.hgetall(key)).flat());
      else if (type === 'set') out.push(...(await redis.client.smembers(key)));
      else if (type === 'list') out.push(...(await redis.client.lrange(key, 0, -1)));
      else if (type === 'zset') out.push(...(await redis.client.zrange(key, '0', '-1')));
      else out.push(`<${type}>`);
    }
  } while (cursor !== '0');
  return out;
}

/** Flips one character in the middle of a key (keeps the key shape). */
function alter(key: string): string {
  const i = 20;
  return key.slice(0, i) + (key[i] === 'A' ? 'B' : 'A') + key.slice(i + 1);
}

describe('AdvertiserKeys', () => {
  let keys: AdvertiserKeys;

  beforeEach(async () => {
    await redis.client.flushdb();
    keys = new AdvertiserKeys(redis.client, PEPPER);
  });

  it('generateApiKey makes pwk_ + 43 base64url characters, different every time', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(KEY_SHAPE);
    expect(b).toMatch(KEY_SHAPE);
    expect(a).not.toBe(b);
  });

  it('create returns a key that verifies; wrong keys, ids and shapes do not', async () => {
    const key = await keys.create('acme-media', 'Acme Media', T1);
    expect(key).toMatch(KEY_SHAPE);
    expect(await keys.verify('acme-media', key)).toBe(true);

    expect(await keys.verify('acme-media', alter(key))).toBe(false);
    expect(await keys.verify('acme-media', generateApiKey())).toBe(false);
    expect(await keys.verify('acme-media', '')).toBe(false);
    expect(await keys.verify('acme-media', `${key}x`)).toBe(false);
    expect(await keys.verify('acme-media', key.slice(4))).toBe(false);
    expect(await keys.verify('acme-media', key.toUpperCase())).toBe(false);
    expect(await keys.verify('other-co', key)).toBe(false);
    expect(await keys.verify('ACME-MEDIA', key)).toBe(false);
    expect(await keys.verify('ac', key)).toBe(false);
    expect(await keys.verify('acme media', key)).toBe(false);
    expect(await keys.verify('', key)).toBe(false);
  });

  it('keys of two advertisers are not interchangeable', async () => {
    const a = await keys.create('alpha-co', 'Alpha', T1);
    const b = await keys.create('beta-co', 'Beta', T1);
    expect(await keys.verify('alpha-co', a)).toBe(true);
    expect(await keys.verify('beta-co', b)).toBe(true);
    expect(await keys.verify('alpha-co', b)).toBe(false);
    expect(await keys.verify('beta-co', a)).toBe(false);
  });

  it('never stores a key in clear', async () => {
    const k1 = await keys.create('acme-media', 'Acme Media', T1);
    const k2 = await keys.create('beta-co', 'Beta', T1);
    const k3 = await keys.rotate('beta-co', T2);
    const everything = await dumpRedis();
    expect(everything.length).toBeGreaterThan(0);
    for (const key of [k1, k2, k3]) {
      const secret = key.slice(4); // the 43 random characters
      for (const item of everything) {
        expect(item.includes(secret), `key material found in Redis: ${item.slice(0, 60)}`).toBe(false);
        // nor its raw bytes as hex or base64
        const raw = Buffer.from(secret, 'base64url');
        expect(item.includes(raw.toString('hex'))).toBe(false);
        expect(item.includes(raw.toString('base64'))).toBe(false);
      }
    }
  });

  it('refuses a duplicate id and keeps the original key working', async () => {
    const key = await keys.create('acme-media', 'Acme Media', T1);
    await expect(keys.create('acme-media', 'Impostor', T2)).rejects.toBeInstanceOf(AdvertiserError);
    expect(await keys.verify('acme-media', key)).toBe(true);
    expect((await keys.list()).map((r) => r.name)).toEqual(['Acme Media']);
  });

  it('refuses a malformed id on create', async () => {
    for (const id of ['AB', 'Acme', 'a', '-acme', 'acme media', 'acme:1', 'x'.repeat(65)]) {
      await expect(keys.create(id, 'X', T1)).rejects.toBeInstanceOf(AdvertiserError);
    }
    expect(await redis.client.dbsize()).toBe(0);
  });

  it('rotate adds a key and keeps the previous one live; retire ends the overlap at once', async () => {
    const old = await keys.create('acme-media', 'Acme Media', T1);
    const fresh = await keys.rotate('acme-media', T2);
    expect(fresh).toMatch(KEY_SHAPE);
    expect(fresh).not.toBe(old);
    expect(await keys.verify('acme-media', old)).toBe(true);
    expect(await keys.verify('acme-media', fresh)).toBe(true);
    expect(await keys.retire('acme-media', T3)).toBe(true);
    expect(await keys.retire('acme-media', T3)).toBe(false);
    expect(await keys.verify('acme-media', old)).toBe(false);
    expect(await keys.verify('acme-media', fresh)).toBe(true);
    // a second instance (another API process) agrees at once
    const elsewhere = new AdvertiserKeys(redis.client, PEPPER);
    expect(await elsewhere.verify('acme-media', old)).toBe(false);
    expect(await elsewhere.verify('acme-media', fresh)).toBe(true);
  });

  it('never more than two live keys: a second rotation drops the oldest', async () => {
    const k1 = await keys.create('acme-media', 'Acme Media', T1);
    const k2 = await keys.rotate('acme-media', T2);
    const k3 = await keys.rotate('acme-media', T3);
    expect([
      await keys.verify('acme-media', k1),
      await keys.verify('acme-media', k2),
      await keys.verify('acme-media', k3),
    ]).toEqual([false, true, true]);
    expect((await keys.list())[0]!.keys.map((k) => k.createdAt)).toEqual([T3.toISOString(), T2.toISOString()]);
  });

  it('a record written before key overlap existed (keyHash only) still verifies and rotates', async () => {
    const key = generateApiKey();
    const probe = new AdvertiserKeys(redis.client, PEPPER);
    const fresh = await probe.create('old-style', 'Old', T1);
    // Rewrite as the earlier layout: one keyHash, no keyCreatedAt.
    const hash = (await redis.client.hget('pw:adv:old-style', 'keyHash'))!;
    await redis.client.hdel('pw:adv:old-style', 'keyCreatedAt');
    expect(await keys.verify('old-style', fresh)).toBe(true);
    expect(await keys.verify('old-style', key)).toBe(false);
    const next = await keys.rotate('old-style', T2);
    expect(await keys.verify('old-style', fresh)).toBe(true);
    expect(await keys.verify('old-style', next)).toBe(true);
    expect((await keys.list())[0]!.keys.map((k) => k.keyId)).toEqual([expect.any(String), hash.slice(0, 12)]);
  });

  it('records when each key was last used', async () => {
    const key = await keys.create('acme-media', 'Acme Media', T1);
    expect((await keys.list())[0]!.keys[0]!.lastUsedAt).toBeUndefined();
    expect(await keys.verify('acme-media', key, T2)).toBe(true);
    await expect.poll(async () => (await keys.list())[0]!.keys[0]!.lastUsedAt).toBe(T2.toISOString());
  });

  it('revoke makes every live key fail at once; rotate reactivates with a new key', async () => {
    const key = await keys.create('acme-media', 'Acme Media', T1);
    const second = await keys.rotate('acme-media', T1);
    await keys.revoke('acme-media', T2);
    expect(await keys.verify('acme-media', key)).toBe(false);
    expect(await keys.verify('acme-media', second)).toBe(false);
    expect((await keys.list())[0]!.keys).toEqual([]);
    const again = await keys.rotate('acme-media', T3);
    expect(await keys.verify('acme-media', again)).toBe(true);
    expect(await keys.verify('acme-media', key)).toBe(false);
    expect(await keys.verify('acme-media', second)).toBe(false);
  });

  it('rotate and revoke refuse unknown advertisers', async () => {
    await expect(keys.rotate('nobody-here', T1)).rejects.toBeInstanceOf(AdvertiserError);
    await expect(keys.revoke('nobody-here', T1)).rejects.toBeInstanceOf(AdvertiserError);
    await expect(keys.retire('nobody-here', T1)).rejects.toBeInstanceOf(AdvertiserError);
  });

  it('a key verified with another pepper fails', async () => {
    const key = await keys.create('acme-media', 'Acme Media', T1);
    const otherPepper = new AdvertiserKeys(redis.client, 'another-pepper-0123456789-abcdefghijklmno');
    expect(await otherPepper.verify('acme-media', key)).toBe(false);
  });

  it('list shows every advertiser sorted by id with its status and dates', async () => {
    await keys.create('zeta-news', 'Zeta News', T1);
    await keys.create('acme-media', 'Acme Media', T1);
    await keys.create('mid-co', 'Mid Co', T1);
    await keys.rotate('mid-co', T2);
    await keys.revoke('zeta-news', T3);
    const keyId = expect.stringMatching(/^[0-9a-f]{12}$/);
    expect(await keys.list()).toEqual([
      {
        id: 'acme-media',
        name: 'Acme Media',
        status: 'active',
        createdAt: T1.toISOString(),
        keys: [{ keyId, createdAt: T1.toISOString() }],
      },
      {
        id: 'mid-co',
        name: 'Mid Co',
        status: 'active',
        createdAt: T1.toISOString(),
        rotatedAt: T2.toISOString(),
        keys: [
          { keyId, createdAt: T2.toISOString() },
          { keyId, createdAt: T1.toISOString() },
        ],
      },
      {
        id: 'zeta-news',
        name: 'Zeta News',
        status: 'revoked',
        createdAt: T1.toISOString(),
        revokedAt: T3.toISOString(),
        keys: [],
      },
    ]);
  });
});
