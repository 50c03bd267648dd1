/**
 * The command-line tools as a new user meets them: help without Redis, one-line errors for what
 * the user can fix. (The advertiser CLI against a running launcher is drilled in launcher.test.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev/private-redis.js';
import { spawnTsx } from '../support/processes.js';

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
  const p = spawnTsx(entry, args, { ...isolatedEnv(), ...extra });
  return { code: await p.exit, out: p.output() };
}

describe('advertiser CLI', () => {
  it('--help works without Redis and lists every command', async () => {
    const { code, out } = await run('src/cli/advertiser.ts', '--help');
    expect(code).toBe(0);
    for (const command of ['create <id> [name]', 'rotate <id>', 'retire <id>', 'revoke <id>', 'list', '--json']) expect(out).toContain(command);
  }, 30_000);

  it('without any Redis, says so in one line', async () => {
    const { code, out } = await run('src/cli/advertiser.ts', 'list');
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual(['no Redis to talk to: set REDIS_URL or REDIS_SENTINELS, or run this next to a running `npm start`']);
  }, 30_000);

  it('a Redis it cannot reach is one line naming where it looked, without the password', async () => {
    const port = await freePort();
    const { code, out } = await runWith({ REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${port}` }, 'src/cli/advertiser.ts', 'list');
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(from REDIS_URL\\): `))]);
    expect(out).not.toContain('s3cret-pw');
  }, 30_000);

  it('an unknown command is a usage error', async () => {
    const { code, out } = await run('src/cli/advertiser.ts', 'delete', 'x');
    expect(code).toBe(2);
    expect(out).toMatch(/^unknown command "delete"\n\nusage: /);
  }, 30_000);
});

describe('match-markets CLI', () => {
  it('--help explains its inputs', async () => {
    const { code, out } = await run('src/cli/match-markets.ts', '--help');
    expect(code).toBe(0);
    expect(out).toMatch(/--kalshi FILE[\s\S]*--polymarket FILE[\s\S]*KALSHI_BASE_URL[\s\S]*POLYMARKET_GAMMA_URL/);
  }, 30_000);

  it('a missing file is one line, not a stack trace', async () => {
    const { code, out } = await run('src/cli/match-markets.ts', '--kalshi', 'no-such-file.json', '--polymarket', 'no-such-file.json');
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toEqual(['match-markets: no-such-file.json: no such file']);
  }, 30_000);
});
