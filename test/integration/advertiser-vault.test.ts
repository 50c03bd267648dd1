/**
 * The API's disk copy of the advertiser records against a real redis-server: it follows Redis,
 * puts back what Redis lost (and only that), never loses an advertiser Redis forgot, and is an
 * export the CLI's import takes.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { AdvertiserBackup } from '../../src/auth/advertiser-backup.js';
import { AdvertiserKeys } from '../../src/auth/advertiser-keys.js';
import { AdvertiserVault, vaultFile } from '../../src/auth/advertiser-vault.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const PEPPER = 'pepper-for-tests-0123456789-abcdefghijklmnop';
const NOW = new Date('2026-11-22T14:00:00.000Z');
const log = pino({ level: 'silent' });

beforeEach(async () => {
  await redis.client.flushdb();
});

describe('AdvertiserVault', () => {
  it('restores what Redis lost, as it was last seen, and keeps the copy as a private export', async () => {
    const keys = new AdvertiserKeys(redis.client, PEPPER);
    const kept = await keys.create('vault-kept', 'Kept', NOW);
    const lost = await keys.create('vault-lost', 'Lost', NOW);
    const file = vaultFile(mkdtempSync(join(tmpdir(), 'pw-vault-')));
    const vault = new AdvertiserVault(redis.client, file, log);
    expect(await vault.sync()).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(AdvertiserBackup.parse(JSON.parse(readFileSync(file, 'utf8'))).advertisers.map((a) => a.id)).toEqual([
      'vault-kept',
      'vault-lost',
    ]);

    await redis.client.del('pw:adv:vault-lost'); // evicted
    const rotated = await keys.rotate('vault-kept', NOW); // changed meanwhile: not overwritten by the copy
    expect(await vault.sync()).toEqual(['vault-lost']);
    expect(vault.restored).toBe(1);
    expect(await keys.verify('vault-lost', lost)).toBe(true);
    expect(await keys.verify('vault-kept', rotated)).toBe(true);
    expect(await keys.verify('vault-kept', kept)).toBe(true); // the rotation's overlap, as Redis holds it

    // A new process on the same folder, after a flush: the copy on disk brings them back.
    await redis.client.flushdb();
    const next = new AdvertiserVault(redis.client, file, log);
    expect(await next.restoreIfLost('vault-kept')).toBe(true);
    expect(await keys.verify('vault-kept', rotated)).toBe(true);
    expect(await keys.verify('vault-lost', lost)).toBe(true);
    // An id it never held costs nothing and restores nothing.
    expect(await next.restoreIfLost('vault-never')).toBe(false);
  });
});
