/**
 * The command-line tools as a new user meets them: help without Redis, one-line errors for what
 * the user can fix. (The advertiser CLI against a running launcher is drilled in launcher.test.ts.)
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../../src/runtime/private-redis.js';
import { freePort } from '../../src/runtime/free-port.js';
import { spawnEntry } from '../support/processes.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys } from '../support/service.js';

const redis = useRedis();

/** No REDIS_URL and an empty data folder: no Redis anywhere to be found. */
function isolatedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'pw-cli-')) };
  delete env.REDIS_URL;
  return env;
}

async function run(entry: string, ...args: string[]) {
  return runWith({}, entry, ...args);
}

async function runWith(extra: NodeJS.ProcessEnv, entry: string, ...args: string[]) {
  const p = spawnEntry(entry, args, { ...isolatedEnv(), ...extra });
  return { code: await p.exit, out: p.output() };
}

describe('advertiser CLI', () => {
  it('--help works without Redis and lists every command', async () => {
    const { code, out } = await run('src/tools/advertiser.ts', '--help');
    expect(code).toBe(0);
    for (const command of [
      'create <id> [name]',
      'rotate <id>',
      'retire <id>',
      'revoke <id>',
      'list',
      'export [file]',
      'import <file>',
      '--json',
    ])
      expect(out).toContain(command);
  }, 30_000);

  it('without any Redis, says so in one line', async () => {
    const { code, out } = await run('src/tools/advertiser.ts', 'list');
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual([
      'no Redis to talk to: set REDIS_URL or REDIS_SENTINELS, or run this next to a running `npm start`',
    ]);
  }, 30_000);

  it('a Redis it cannot reach is one line naming where it looked, without the password', async () => {
    const port = await freePort();
    const { code, out } = await runWith(
      { REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${port}` },
      'src/tools/advertiser.ts',
      'list',
    );
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(from REDIS_URL\\): `),
      ),
    ]);
    expect(out).not.toContain('s3cret-pw');
  }, 30_000);

  it('an unknown command is a usage error', async () => {
    const { code, out } = await run('src/tools/advertiser.ts', 'delete', 'x');
    expect(code).toBe(2);
    expect(out).toMatch(/^unknown command "delete"\n\nusage: /);
  }, 30_000);
});

describe('advertiser CLI: export and import', () => {
  it('exports key hashes only, and an import elsewhere makes the same keys verify there', async () => {
    const source = advertiserKeys(redis.client);
    const now = new Date();
    const live = await source.create('backup-live', 'Backup Live', now);
    const rotated = await source.rotate('backup-live', now); // two live keys
    const gone = await source.create('backup-gone', 'Backup Gone', now);
    await source.revoke('backup-gone', now);

    const file = join(mkdtempSync(join(tmpdir(), 'pw-backup-')), 'advertisers.json');
    const exported = await runWith({ REDIS_URL: redis.url }, 'src/tools/advertiser.ts', 'export', file);
    expect(exported.code, exported.out).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    for (const key of [live, rotated, gone]) expect(text).not.toContain(key);
    expect(text).not.toContain('pwk_');

    const target = await startPrivateRedis();
    const client = new Redis(target.url);
    try {
      const imported = await runWith({ REDIS_URL: target.url }, 'src/tools/advertiser.ts', 'import', file, '--json');
      expect(imported.code, imported.out).toBe(0);
      expect(JSON.parse(imported.out)).toEqual({ added: ['backup-gone', 'backup-live'], skipped: [], liftedBlocks: 0 });
      const copy = advertiserKeys(client);
      expect(await copy.list()).toEqual(await source.list());
      expect(await copy.verify('backup-live', live)).toBe(true);
      expect(await copy.verify('backup-live', rotated)).toBe(true);
      expect(await copy.verify('backup-gone', gone)).toBe(false);
      // Again: nothing is overwritten.
      const again = await runWith({ REDIS_URL: target.url }, 'src/tools/advertiser.ts', 'import', file);
      expect(again.out.trim()).toBe('imported 0 advertisers; skipped 2 already here: backup-gone, backup-live');
    } finally {
      client.disconnect();
      await target.stop();
    }
  }, 60_000);

  it('a file that is not an export is one line naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pw-backup-')), 'other.json');
    writeFileSync(file, JSON.stringify({ advertisers: [] }));
    const { code, out } = await runWith({ REDIS_URL: redis.url }, 'src/tools/advertiser.ts', 'import', file);
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${file}: not an advertiser export \\(format: `)),
    ]);
  }, 30_000);
});

describe('postback CLI', () => {
  it('--help works without Redis and lists every command; an operator the catalog lacks is a usage error', async () => {
    const help = await run('src/tools/postback.ts', '--help');
    expect(help.code).toBe(0);
    for (const command of [
      'create <operator>',
      'rotate <operator>',
      'retire <operator>',
      'revoke <operator>',
      'list',
      '--json',
    ])
      expect(help.out).toContain(command);
    const unknown = await run('src/tools/postback.ts', 'create', 'no-such-operator');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/^no operator "no-such-operator" in the catalog\n\nusage: /);
  }, 30_000);

  it("creates, rotates and lists an operator's secrets as the API derives them; errors are one line", async () => {
    const env = { REDIS_URL: redis.url };
    const created = await runWith(env, 'src/tools/postback.ts', 'create', 'limitless', '--json');
    expect(created.code, created.out).toBe(0);
    const { secret } = JSON.parse(created.out) as { secret: string };
    expect(secret).toMatch(/^pwp_/);
    const rotated = await runWith(env, 'src/tools/postback.ts', 'rotate', 'limitless');
    expect(rotated.out).toMatch(
      /^operator limitless\nsecret {5}pwp_\S+\n\(shown once: hand it to the operator now; the previous secret verifies until `retire`\)/,
    );
    const listed = await runWith(env, 'src/tools/postback.ts', 'list', '--json');
    const [entry] = (JSON.parse(listed.out) as Array<{ operatorId: string; secrets: unknown[] }>).filter(
      (o) => o.operatorId === 'limitless',
    );
    expect(entry!.secrets).toHaveLength(2);
    expect(listed.out).not.toContain(secret);
    const again = await runWith(env, 'src/tools/postback.ts', 'create', 'limitless');
    expect(again.code).toBe(1);
    expect(again.out.trim()).toBe('operator limitless already has a postback secret (rotate it instead)');
  }, 60_000);
});

describe('match-markets CLI', () => {
  it('--help explains its inputs', async () => {
    const { code, out } = await run('src/tools/match-markets.ts', '--help');
    expect(code).toBe(0);
    expect(out).toMatch(/--kalshi FILE[\s\S]*--polymarket FILE[\s\S]*KALSHI_BASE_URL[\s\S]*POLYMARKET_GAMMA_URL/);
  }, 30_000);

  it('a missing file is one line, not a stack trace', async () => {
    const { code, out } = await run(
      'src/tools/match-markets.ts',
      '--kalshi',
      'no-such-file.json',
      '--polymarket',
      'no-such-file.json',
    );
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual(['match-markets: no-such-file.json: no such file']);
  }, 30_000);
});
