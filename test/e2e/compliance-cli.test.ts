/**
 * `npm run compliance` as a compliance officer meets it (help, mistakes answered in a line, a rules
 * file checked with its bad row named), reviews that do not go stale (the audit, the API's start-up
 * warning and metrics, all on a test clock), and the suspension gauge.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import rulesJson from '../../src/catalog/compliance/rules.json' with { type: 'json' };
import { BUNDLED_RULES } from '../../src/catalog/compliance/bundled.js';
import { overdueRows } from '../../src/catalog/compliance/review.js';
import { suspend } from '../../src/catalog/compliance/store.js';
import { freePort } from '../../src/runtime/free-port.js';
import { root, spawnEntry } from '../support/processes.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';

const redis = useRedis();
const RULES_FILE = resolve(root, 'src/catalog/compliance/rules.json');
const DAY = 86_400_000;
/** The newest review date of the bundled rules. */
const newest = Date.parse(
  `${BUNDLED_RULES.rows()
    .map(({ row }) => row.reviewed_on)
    .sort()
    .at(-1)!}T00:00:00Z`,
);

/** The command with `env` only (no Redis unless given), on `clock` when given. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const p = spawnEntry('src/tools/compliance.ts', args, {
    PATH: process.env.PATH ?? '',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pw-cli-')),
    ...env,
  });
  return { code: await p.exit, out: p.output() };
}

describe('npm run compliance', () => {
  it('--help works without Redis and lists every command', async () => {
    const { code, out } = await cli(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'suspend',
      'resume',
      'list',
      'audit',
      'check <file>',
      'publish <file>',
      '--surface <category>',
      '--reason',
    ])
      expect(out).toContain(command);
  }, 30_000);

  it.each([
    [
      ['suspend', '--operator', 'kalshi', '--jurisdiction', 'US-MI'],
      'suspend needs --reason: every change is audited with why',
    ],
    [
      ['suspend', '--operator', 'nobody', '--jurisdiction', 'US-MI', '--reason', 'x y z'],
      '--operator: no operator "nobody"',
    ],
    [
      ['suspend', '--operator', 'kalshi', '--jurisdiction', 'GB-ENG', '--reason', 'x y z'],
      '--jurisdiction: not a country code or a subdivision of US or CA',
    ],
    [
      ['resume', '--operator', 'kalshi', '--jurisdiction', 'US-MI', '--surface', 'horses', '--reason', 'x y z'],
      '--surface: Invalid option',
    ],
    [['publish', RULES_FILE], 'publish needs --reason'],
    [['delete'], 'unknown command "delete"'],
  ])(
    '%j is a usage error, before any Redis is asked',
    async (args, message) => {
      const { code, out } = await cli(args);
      expect(code).toBe(2);
      expect(out.split('\n')[0]).toContain(message);
      expect(out).toContain('usage: npm run compliance');
    },
    30_000,
  );

  it('checks a rules file: the bundled one is valid; a bad row is named; an older revision is not published', async () => {
    expect(await cli(['check', RULES_FILE])).toEqual({
      code: 0,
      out: `${RULES_FILE}: valid (revision ${BUNDLED_RULES.revision}, ${BUNDLED_RULES.rows().length} rows)\n`,
    });
    const dir = mkdtempSync(join(tmpdir(), 'pw-rules-'));
    const bad = join(dir, 'bad.json');
    const at = rulesJson.disclosures.findIndex((d) => d.jurisdiction === 'GB');
    writeFileSync(
      bad,
      JSON.stringify({
        ...rulesJson,
        disclosures: rulesJson.disclosures.map((d, i) => (i === at ? { ...d, reviewed_on: '27/11/2026' } : d)),
      }),
    );
    const refused = await cli(['check', bad]);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(
      `invalid ${bad}:\n  row ${rulesJson.disclosures[at]!.id} (disclosures[${at}]) reviewed_on: reviewed_on must be YYYY-MM-DD\n`,
    );
    const same = await cli(['publish', RULES_FILE, '--reason', 'again'], { REDIS_URL: redis.url });
    expect(same.code).toBe(2);
    expect(same.out).toContain(`revision ${BUNDLED_RULES.revision} is not above the release's own rules`);
  }, 60_000);

  it('audits the rules in force by the clock: the rows reviewed longer ago than COMPLIANCE_REVIEW_DAYS', async () => {
    const clock = testClock();
    clock.set(newest + 45 * DAY);
    const expected = overdueRows(BUNDLED_RULES, clock.now(), 30).map((r) => r.id);
    expect(expected.length).toBe(BUNDLED_RULES.rows().length);
    const all = await cli(['audit', '--json'], { REDIS_URL: redis.url, ...clock.env });
    expect(all.code, all.out).toBe(0);
    const body = JSON.parse(all.out) as { source: string; review_days: number; overdue: Array<{ id: string }> };
    expect([body.source, body.review_days, body.overdue.map((r) => r.id)]).toEqual([
      `bundled rules (revision ${BUNDLED_RULES.revision})`,
      30,
      expected,
    ]);
    // A longer review period leaves the newest rows in it; a file is audited without Redis.
    const longer = await cli(['audit', '--file', RULES_FILE], { COMPLIANCE_REVIEW_DAYS: '45', ...clock.env });
    expect(longer.code).toBe(0);
    const listed = overdueRows(BUNDLED_RULES, clock.now(), 45);
    expect(listed.length).toBeLessThan(expected.length);
    expect(longer.out.split('\n')[0]).toBe(
      `${RULES_FILE}: ${listed.length} of ${BUNDLED_RULES.rows().length} rows reviewed more than 45 days ago`,
    );
  }, 60_000);

  it('suspends, lists with who, when and why, and resumes; resuming nothing says so', async () => {
    const env = { REDIS_URL: redis.url };
    const suspended = await cli(
      [
        'suspend',
        '--operator',
        'fanduel',
        '--jurisdiction',
        'US-MD',
        '--surface',
        'sports',
        '--reason',
        'Regulator letter of 2026-11-27',
        '--by',
        'cli-officer',
      ],
      env,
    );
    expect(suspended).toEqual({
      code: 0,
      out: 'suspended fanduel in US-MD (sports); every API process applies it within seconds\n',
    });
    const listed = await cli(['list', '--json'], env);
    const body = JSON.parse(listed.out) as {
      suspensions: Array<Record<string, unknown>>;
      changes: Array<Record<string, unknown>>;
    };
    expect(body.suspensions).toEqual([
      {
        operator: 'fanduel',
        jurisdiction: 'US-MD',
        surface: 'sports',
        reason: 'Regulator letter of 2026-11-27',
        by: 'cli-officer',
        at: expect.any(String),
      },
    ]);
    expect(body.changes[0]).toMatchObject({
      action: 'suspend',
      by: 'cli-officer',
      reason: 'Regulator letter of 2026-11-27',
      operator: 'fanduel',
    });
    expect(
      (
        await cli(
          [
            'resume',
            '--operator',
            'fanduel',
            '--jurisdiction',
            'US-MD',
            '--surface',
            'sports',
            '--reason',
            'letter withdrawn',
            '--by',
            'cli-officer',
          ],
          env,
        )
      ).code,
    ).toBe(0);
    const again = await cli(
      [
        'resume',
        '--operator',
        'fanduel',
        '--jurisdiction',
        'US-MD',
        '--surface',
        'sports',
        '--reason',
        'again',
        '--by',
        'cli-officer',
      ],
      env,
    );
    expect(again).toEqual({
      code: 1,
      out: 'no suspension of fanduel in US-MD (sports): see npm run compliance -- list\n',
    });
  }, 60_000);
});

describe('the API on a clock 45 days past the newest review', () => {
  let api: ServiceProcess;
  let adminPort: number;
  const clock = testClock();

  beforeAll(async () => {
    await redis.client.flushdb();
    clock.set(newest + 45 * DAY);
    adminPort = await freePort();
    api = await spawnProcess('src/main.ts', testEnv(redis.url, { ADMIN_PORT: String(adminPort), ...clock.env }));
    await waitFor(`${api.base}/healthz`, (s) => s === 200, api, 60_000);
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  const metric = async (name: string) =>
    Number(
      new RegExp(`^${name} (\\S+)$`, 'm').exec(
        await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text(),
      )?.[1] ?? NaN,
    );

  it('warns at start and exports the overdue count; counts the suspensions in force', async () => {
    const overdue = overdueRows(BUNDLED_RULES, clock.now(), 30).length;
    const warning = api
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; overdue?: number; reviewDays?: number })
      .find((l) => l.msg.startsWith('compliance rule rows overdue for review'));
    expect(warning).toMatchObject({ overdue, reviewDays: 30 });
    expect(await metric('predictwire_compliance_reviews_overdue')).toBe(overdue);
    expect(await metric('predictwire_compliance_suspensions_active')).toBe(0);
    await suspend(redis.client, {
      operator: 'bet365',
      jurisdiction: 'GB',
      surface: null,
      reason: 'licence review',
      by: 'metrics-test',
      at: new Date(clock.now()).toISOString(),
    });
    await vi.waitFor(async () => expect(await metric('predictwire_compliance_suspensions_active')).toBe(1), {
      timeout: 5_000,
      interval: 50,
    });
    // Back to the real date: the newest rows are within the period again.
    clock.set(newest);
    await vi.waitFor(
      async () =>
        expect(await metric('predictwire_compliance_reviews_overdue')).toBe(
          overdueRows(BUNDLED_RULES, newest, 30).length,
        ),
      { timeout: 5_000, interval: 50 },
    );
  }, 60_000);
});
