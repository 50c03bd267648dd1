/**
 * Compliance shared through a real redis-server: suspensions and published rules written by the
 * store (as the CLI writes them) reach a follower through the notice, a bad published document is
 * refused with its row named while the running rules stay, every change is audited, and a Redis
 * that loses its data gets back what the follower held (or, for a new process, its disk copy).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import rulesJson from '../../src/catalog/compliance/rules.json' with { type: 'json' };
import { BUNDLED_RULES } from '../../src/catalog/compliance/bundled.js';
import { complianceCopyFile, readComplianceCopy } from '../../src/catalog/compliance/disk-copy.js';
import { ComplianceFollower } from '../../src/catalog/compliance/follower.js';
import { applyCompliance, complianceState } from '../../src/catalog/compliance/state.js';
import {
  publishRules,
  readAudit,
  readCompliance,
  readRevision,
  resume,
  StaleRevisionError,
  suspend,
} from '../../src/catalog/compliance/store.js';
import type { Suspension } from '../../src/catalog/compliance/suspensions.js';
import { catalogView } from '../../src/catalog/shown-operators.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
/** Every line the followers log. */
const lines: Array<Record<string, unknown>> = [];
const log = pino(
  { level: 'info' },
  { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
);
const IDS = OPERATORS.map((op) => op.id);
const AT = '2026-11-27T10:00:00.000Z';
const followers: Array<{ follower: ComplianceFollower; subscriber: Redis }> = [];

/** A follower on its own subscription and data folder (or the one given), started. */
async function follower(dataDir = mkdtempSync(join(tmpdir(), 'pw-compliance-'))) {
  const subscriber = new Redis(redis.url);
  const f = new ComplianceFollower(redis.client, subscriber, log, { operatorIds: IDS, dataDir, pollMs: 200 });
  followers.push({ follower: f, subscriber });
  await f.start();
  return { follower: f, dataDir };
}

const michigan = (surface: Suspension['surface'] = null): Suspension => ({
  operator: 'draftkings',
  jurisdiction: 'US-MI',
  surface,
  reason: 'court order 2026-123',
  by: 'officer',
  at: AT,
});
const shownIn = (j: string, id: string, surface: 'all' | 'sports' = 'all') =>
  catalogView(j).operatorOn(id, surface) !== undefined;

beforeAll(async () => {
  await redis.client.flushdb();
});

afterEach(async () => {
  for (const { follower: f, subscriber } of followers.splice(0)) {
    f.stop();
    subscriber.disconnect();
  }
  await redis.client.flushdb();
  applyCompliance({ rules: BUNDLED_RULES, suspensions: [] });
});

afterAll(() => applyCompliance({ rules: BUNDLED_RULES, suspensions: [] }));

describe('suspensions through Redis', () => {
  it('reach the follower at once, fold into the catalog view, and are audited; resume brings the operator back', async () => {
    await follower();
    expect(shownIn('US-MI', 'draftkings')).toBe(true);
    const revision = await suspend(redis.client, michigan());
    await expect.poll(() => shownIn('US-MI', 'draftkings'), { timeout: 2_000, interval: 10 }).toBe(false);
    expect(shownIn('US-NJ', 'draftkings')).toBe(true);
    expect(complianceState().suspensions).toEqual([michigan()]);
    expect(
      await resume(
        redis.client,
        { operator: 'draftkings', jurisdiction: 'US-MI', surface: null },
        'officer',
        'order lifted',
        AT,
      ),
    ).toBe(revision + 1);
    await expect.poll(() => shownIn('US-MI', 'draftkings'), { timeout: 2_000, interval: 10 }).toBe(true);
    // nothing to resume: no change, no audit entry
    expect(
      await resume(
        redis.client,
        { operator: 'draftkings', jurisdiction: 'US-MI', surface: null },
        'officer',
        'again',
        AT,
      ),
    ).toBeUndefined();
    expect((await readAudit(redis.client)).map((e) => [e.action, e.by, e.reason, e.revision])).toEqual([
      ['resume', 'officer', 'order lifted', revision + 1],
      ['suspend', 'officer', 'court order 2026-123', revision],
    ]);
  });

  it('are logged by the follower with who, when and why', async () => {
    await follower();
    await suspend(redis.client, michigan());
    await expect
      .poll(() => lines.find((l) => l.msg === 'compliance change: suspend'), { timeout: 2_000, interval: 10 })
      .toMatchObject({
        action: 'suspend',
        operator: 'draftkings',
        jurisdiction: 'US-MI',
        by: 'officer',
        reason: 'court order 2026-123',
        at: AT,
      });
  });

  it('of one surface withdraw only that surface', async () => {
    await follower();
    await suspend(redis.client, { ...michigan('sports'), operator: 'kalshi' });
    await expect.poll(() => shownIn('US-MI', 'kalshi', 'sports'), { timeout: 2_000, interval: 10 }).toBe(false);
    expect(catalogView('US-MI').operatorOn('kalshi', 'economics')).toBeDefined();
  });

  it('are put back into a Redis that lost its data, from memory, and a new process with an empty Redis takes them from its disk copy', async () => {
    const { dataDir } = await follower();
    await suspend(redis.client, michigan());
    await expect.poll(() => shownIn('US-MI', 'draftkings'), { timeout: 2_000, interval: 10 }).toBe(false);
    await expect
      .poll(() => readComplianceCopy(complianceCopyFile(dataDir)), { timeout: 2_000, interval: 20 })
      .toMatchObject({ suspensions: [michigan()] });
    // Redis loses everything (FLUSHALL sends no notice): the poll notices, the follower restores.
    await redis.client.flushall();
    await expect
      .poll(async () => (await readCompliance(redis.client)).suspensions, { timeout: 3_000, interval: 50 })
      .toEqual([michigan()]);
    expect(shownIn('US-MI', 'draftkings')).toBe(false);
    expect((await readAudit(redis.client))[0]).toMatchObject({ action: 'restore' });
    // A process that never saw Redis's state, on the same data folder, restores from the copy.
    for (const { follower: f, subscriber } of followers.splice(0)) {
      f.stop();
      subscriber.disconnect();
    }
    await redis.client.flushall();
    applyCompliance({ rules: BUNDLED_RULES, suspensions: [] });
    await follower(dataDir);
    await expect
      .poll(async () => (await readCompliance(redis.client)).suspensions, { timeout: 3_000, interval: 50 })
      .toEqual([michigan()]);
    await expect.poll(() => shownIn('US-MI', 'draftkings'), { timeout: 2_000, interval: 10 }).toBe(false);
  });

  it('a restore that failed is tried again at the next poll, though Redis still holds no revision', async () => {
    // The follower's own connection may read but not run scripts (the restore is one), until allowed.
    await redis.client.call('ACL', 'SETUSER', 'follower', 'on', 'nopass', '~*', '&*', '+@all', '-eval');
    const reader = new Redis(redis.url, { username: 'follower', password: 'any' });
    const subscriber = new Redis(redis.url);
    const f = new ComplianceFollower(reader, subscriber, log, {
      operatorIds: IDS,
      dataDir: mkdtempSync(join(tmpdir(), 'pw-compliance-')),
      pollMs: 50,
    });
    followers.push({ follower: f, subscriber });
    try {
      await f.start();
      await suspend(redis.client, michigan());
      await expect.poll(() => shownIn('US-MI', 'draftkings'), { timeout: 2_000, interval: 10 }).toBe(false);
      await redis.client.flushall();
      const refused = () => lines.filter((l) => l.msg === 'compliance not restored into Redis: will try again');
      await expect.poll(() => refused().length, { timeout: 3_000, interval: 20 }).toBeGreaterThan(0);
      expect(await readRevision(redis.client)).toBeNull();
      await redis.client.call('ACL', 'SETUSER', 'follower', '+eval');
      await expect
        .poll(async () => (await readCompliance(redis.client)).suspensions, { timeout: 3_000, interval: 50 })
        .toEqual([michigan()]);
    } finally {
      reader.disconnect();
      await redis.client.call('ACL', 'DELUSER', 'follower');
    }
  });

  it('with Redis away at start, the disk copy holds', async () => {
    const { dataDir } = await follower();
    await suspend(redis.client, michigan());
    await expect
      .poll(() => readComplianceCopy(complianceCopyFile(dataDir)), { timeout: 2_000, interval: 20 })
      .toMatchObject({ suspensions: [michigan()] });
    applyCompliance({ rules: BUNDLED_RULES, suspensions: [] });
    const cold = new ComplianceFollower(redis.client, redis.client, log, { operatorIds: IDS, dataDir });
    expect(cold.seedFromDisk()).toBe(true);
    expect(shownIn('US-MI', 'draftkings')).toBe(false);
  });
});

describe('published rules', () => {
  const next = (change: (doc: typeof rulesJson) => unknown) =>
    JSON.stringify(change({ ...rulesJson, revision: BUNDLED_RULES.revision + 1 }));

  it('apply when valid and newer than the bundled ones', async () => {
    await follower();
    const text = next((doc) => ({
      ...doc,
      allow: doc.allow.map((r) => (r.operator === 'betfair' ? { ...r, jurisdictions: [...r.jurisdictions, 'ES'] } : r)),
    }));
    await publishRules(redis.client, text, BUNDLED_RULES.revision + 1, 'officer', 'Betfair licensed in Spain', AT);
    await expect
      .poll(() => complianceState().rules.revision, { timeout: 2_000, interval: 10 })
      .toBe(BUNDLED_RULES.revision + 1);
    expect(shownIn('ES', 'betfair')).toBe(true);
    // the same revision again is refused by the store itself
    await expect(
      publishRules(redis.client, text, BUNDLED_RULES.revision + 1, 'officer', 'again', AT),
    ).rejects.toBeInstanceOf(StaleRevisionError);
  });

  it('a document with a bad row is refused, naming the row, and the running rules stay', async () => {
    const { follower: f } = await follower();
    const text = next((doc) => ({
      ...doc,
      allow: doc.allow.map((r) => (r.operator === 'betfair' ? { ...r, jurisdictions: ['GB', 'UK'] } : r)),
    }));
    const before = complianceState().rules;
    await suspend(redis.client, michigan()); // something else changes at the same time
    await publishRules(redis.client, text, BUNDLED_RULES.revision + 1, 'officer', 'typo', AT);
    await expect.poll(() => f.refused?.revision, { timeout: 2_000, interval: 10 }).toBe(BUNDLED_RULES.revision + 1);
    const at = rulesJson.allow.findIndex((r) => r.operator === 'betfair');
    expect(f.refused!.problems).toEqual([
      `row ${rulesJson.allow[at]!.id} (allow[${at}]) jurisdictions.1: not a country code or a subdivision of US or CA`,
    ]);
    expect(complianceState().rules).toBe(before);
    expect(complianceState().suspensions).toEqual([michigan()]);
  });
});
