/**
 * `npm run advertiser -- <command>`: manages advertiser API keys. See USAGE (and docs/operations.md).
 * Redis: REDIS_URL, else the private Redis of an `npm start` running in this folder (it records its
 * URL under DATA_DIR, default .data/).
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { AdvertiserError, AdvertiserKeys, type AdvertiserRecord } from '../auth/advertiser-keys.js';
import { ConfigError, loadConfig } from '../config.js';
import { dataDir, launcherRedisUrl } from '../dev/redis-url-file.js';

const USAGE = `usage: npm run advertiser -- <command> [--json]

commands:
  create <id> [name]   new advertiser; prints its first key (shown once)
  rotate <id>          adds a new key; the previous one keeps working until retire
                       (or the next rotate), so clients can switch without an outage
  retire <id>          ends a rotation: the previous key stops working at once
  revoke <id>          every key of the advertiser stops working at once
  list                 advertisers, their status and live keys (created, last used)

options:
  --json               machine-readable output on stdout
  -h, --help           this text

Redis: REDIS_URL if set, else the private Redis of \`npm start\` running in this folder.
Keys are hashed with API_KEY_PEPPER: use the same value as the API.`;

class UsageError extends Error {}

/** REDIS_URL, else the URL a running launcher recorded. */
function redisUrl(): { url: string; from: string } {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, from: 'REDIS_URL' };
  const dir = dataDir();
  const url = launcherRedisUrl(dir);
  if (url) return { url, from: `npm start (recorded in ${dir})` };
  throw new ConfigError('no Redis to talk to: set REDIS_URL, or run this next to a running `npm start`');
}

async function connect(url: string, from: string): Promise<Redis> {
  // One attempt, no retries: a CLI should fail in a line, not wait for Redis to come back.
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  let cause = '';
  redis.on('error', (err: Error) => (cause = err.message)); // reported once, below
  try {
    await redis.connect();
  } catch (err) {
    throw new ConfigError(`cannot reach Redis at ${url} (from ${from}): ${cause || (err as Error).message}`);
  }
  return redis;
}

const out = (text: string) => process.stdout.write(`${text}\n`);

function printList(list: AdvertiserRecord[]): void {
  for (const a of list) {
    out(`${a.id}\t${a.status}\t${a.name}\tcreated ${a.createdAt}${a.rotatedAt ? `\trotated ${a.rotatedAt}` : ''}${a.revokedAt ? `\trevoked ${a.revokedAt}` : ''}`);
    for (const k of a.keys) out(`  key ${k.keyId}\tcreated ${k.createdAt}\tlast used ${k.lastUsedAt ?? 'never'}`);
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const [command, id, ...rest] = positionals;
  if (values.help) return (out(USAGE), 0);
  const known = ['create', 'rotate', 'retire', 'revoke', 'list'];
  if (!command || !known.includes(command)) throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  if (command !== 'list' && !id) throw new UsageError(`${command} needs an advertiser id`);

  const { url, from } = redisUrl();
  // The pepper (and its production checks) come from the same settings the API reads.
  const pepper = loadConfig({ ...process.env, REDIS_URL: url }).apiKeyPepper;
  const redis = await connect(url, from);
  try {
    const keys = new AdvertiserKeys(redis, pepper);
    const now = new Date();
    const json = values.json;
    switch (command) {
      case 'create':
      case 'rotate': {
        const key = command === 'create' ? await keys.create(id!, rest.join(' ') || id!, now) : await keys.rotate(id!, now);
        if (json) out(JSON.stringify({ id, apiKey: key, createdAt: now.toISOString() }));
        else out(`advertiser ${id}\napi key    ${key}\n(shown once: store it now${command === 'rotate' ? '; the previous key works until `retire`' : ''})`);
        return 0;
      }
      case 'retire': {
        const retired = await keys.retire(id!, now);
        if (json) out(JSON.stringify({ id, retired }));
        else out(retired ? `advertiser ${id}: previous key retired` : `advertiser ${id} has no previous key`);
        return 0;
      }
      case 'revoke':
        await keys.revoke(id!, now);
        if (json) out(JSON.stringify({ id, status: 'revoked', revokedAt: now.toISOString() }));
        else out(`advertiser ${id} revoked`);
        return 0;
      default: {
        const list = await keys.list();
        if (json) out(JSON.stringify(list, null, 2));
        else printList(list);
        return 0;
      }
    }
  } finally {
    redis.disconnect();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`${err instanceof AdvertiserError || err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
