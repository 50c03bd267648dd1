/**
 * `npm run advertiser -- <command>`: manages advertiser API keys. See USAGE (and docs/operations.md).
 * Redis: REDIS_SENTINELS or REDIS_URL, else the private Redis of an `npm start` running in this
 * folder (it records its URL under DATA_DIR, default .data/).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AdvertiserError, AdvertiserKeys, type AdvertiserRecord } from '../auth/advertiser-keys.js';
import { AdvertiserBackup, exportAdvertisers, importAdvertisers } from '../auth/advertiser-backup.js';
import { liftAuthFailureBlocks } from '../limits/auth-failure-blocks.js';
import { openRedis } from './redis-connection.js';
import { runCommand, UsageError } from './run-command.js';
import { Problem } from '../model/problem.js';
import { parseQuery } from '../http/query.js';
import { ReportQuery, reportRequest } from '../http/report-query.js';
import { readReport, reportCsv, type ReportRequest } from '../tracking/advertiser-report.js';
import { readSnapshot } from '../store/snapshots.js';
import { systemClock } from '../model/clock.js';

const USAGE = `usage: npm run advertiser -- <command> [--json]

commands:
  create <id> [name]   new advertiser; prints its first key (shown once)
  rotate <id>          adds a new key; the previous one keeps working until retire
                       (or the next rotate), so clients can switch without an outage
  retire <id>          ends a rotation: the previous key stops working at once
  revoke <id>          every key of the advertiser stops working at once
  list                 advertisers, their status and live keys (created, last used)
  export [file]        every advertiser's record (key hashes, never keys) as JSON, for
                       backup: to the file (readable by you only), else to stdout
  import <file>        adds the advertisers of an export that are missing here (existing
                       ones are left as they are); keys verify under the same API_KEY_PEPPER

rotate, retire and import also lift the blocks that failed authentications as that
advertiser earned its addresses (its servers with an old or lost key).
  report <id>          the advertiser's clicks, impressions, CTR and conversions as CSV
                       (--json: as GET /advertiser/v1/reports answers), with --from, --to
                       (UTC date or time), --granularity day|hour, --group-by
                       operator,widget,country, --currency (of amounts; default USD)

options:
  --json               machine-readable output on stdout
  -h, --help           this text

Redis: REDIS_SENTINELS (with REDIS_SENTINEL_MASTER) or REDIS_URL, as the API reads them,
else the private Redis of \`npm start\` running in this folder.
Keys are hashed with API_KEY_PEPPER: use the same value as the API.`;

const out = (text: string) => process.stdout.write(`${text}\n`);
/** The line saying how many failed-authentication blocks a command lifted (none: nothing). */
const liftedLine = (n: number) =>
  n > 0 ? `\nlifted the failed-authentication blocks of ${n} address${n === 1 ? '' : 'es'}` : '';

/** An export file, checked; a one-line error naming the file otherwise. */
function readBackup(file: string): AdvertiserBackup {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AdvertiserError(
      `${file}: ${code === 'ENOENT' ? 'no such file' : code ? (err as Error).message : 'not JSON'}`,
    );
  }
  const parsed = AdvertiserBackup.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AdvertiserError(
      `${file}: not an advertiser export (${issue.path.join('.') || 'top level'}: ${issue.message})`,
    );
  }
  return parsed.data;
}

function printList(list: AdvertiserRecord[]): void {
  for (const a of list) {
    out(
      `${a.id}\t${a.status}\t${a.name}\tcreated ${a.createdAt}${a.rotatedAt ? `\trotated ${a.rotatedAt}` : ''}${a.revokedAt ? `\trevoked ${a.revokedAt}` : ''}`,
    );
    for (const k of a.keys) out(`  key ${k.keyId}\tcreated ${k.createdAt}\tlast used ${k.lastUsedAt ?? 'never'}`);
  }
}

/** The report a `report` command asks for, checked as the API checks its query. */
function reportOptions(
  id: string,
  values: { from?: string; to?: string; granularity?: string; 'group-by'?: string; currency?: string },
): ReportRequest {
  const query = new URLSearchParams();
  for (const [flag, param] of [
    ['from', 'from'],
    ['to', 'to'],
    ['granularity', 'granularity'],
    ['group-by', 'group_by'],
    ['currency', 'currency'],
  ] as const) {
    const value = values[flag];
    if (value !== undefined) query.set(param, value);
  }
  try {
    return reportRequest(id, parseQuery(ReportQuery, query.toString()), systemClock());
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    throw new UsageError(err.errors.map((e) => `--${e.param.replace('_', '-')} ${e.message}`).join('; '));
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      from: { type: 'string' },
      to: { type: 'string' },
      granularity: { type: 'string' },
      'group-by': { type: 'string' },
      currency: { type: 'string' },
    },
  });
  const [command, id, ...rest] = positionals;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const known = ['create', 'rotate', 'retire', 'revoke', 'list', 'export', 'import', 'report'];
  if (!command || !known.includes(command))
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  if (command === 'import' && !id) throw new UsageError('import needs the file an export wrote');
  if (!['list', 'export', 'import'].includes(command) && !id) throw new UsageError(`${command} needs an advertiser id`);
  // Read before connecting: a bad file is the user's to fix, whatever Redis says.
  const backup = command === 'import' ? readBackup(id!) : undefined;
  const report = command === 'report' ? reportOptions(id!, values) : undefined;

  // Redis, the pepper (and its production checks) come from the same settings the API reads.
  const { redis, config } = await openRedis();
  try {
    const keys = new AdvertiserKeys(redis, config.apiKeyPepper);
    const now = new Date(systemClock());
    const json = values.json;
    switch (command) {
      case 'create':
      case 'rotate': {
        const key =
          command === 'create' ? await keys.create(id!, rest.join(' ') || id!, now) : await keys.rotate(id!, now);
        const lifted = command === 'rotate' ? await liftAuthFailureBlocks(redis, id!) : 0;
        if (json)
          out(
            JSON.stringify({
              id,
              apiKey: key,
              createdAt: now.toISOString(),
              ...(command === 'rotate' && { liftedBlocks: lifted }),
            }),
          );
        else
          out(
            `advertiser ${id}\napi key    ${key}\n(shown once: store it now${command === 'rotate' ? '; the previous key works until `retire`' : ''})${liftedLine(lifted)}`,
          );
        return 0;
      }
      case 'retire': {
        const retired = await keys.retire(id!, now);
        const lifted = await liftAuthFailureBlocks(redis, id!);
        if (json) out(JSON.stringify({ id, retired, liftedBlocks: lifted }));
        else
          out(
            `${retired ? `advertiser ${id}: previous key retired` : `advertiser ${id} has no previous key`}${liftedLine(lifted)}`,
          );
        return 0;
      }
      case 'revoke':
        await keys.revoke(id!, now);
        if (json) out(JSON.stringify({ id, status: 'revoked', revokedAt: now.toISOString() }));
        else out(`advertiser ${id} revoked`);
        return 0;
      case 'export': {
        const text = `${JSON.stringify(await exportAdvertisers(redis, now), null, 2)}\n`;
        if (!id) {
          process.stdout.write(text);
          return 0;
        }
        writeFileSync(id, text, { mode: 0o600 });
        out(json ? JSON.stringify({ file: id }) : `advertisers exported to ${id} (key hashes only)`);
        return 0;
      }
      case 'report': {
        const payload = await readReport(redis, report!, (await readSnapshot(redis, 'fx', 'daily'))?.data);
        if (json) out(JSON.stringify(payload, null, 2));
        else process.stdout.write(reportCsv(payload).replaceAll('\r\n', '\n'));
        return 0;
      }
      case 'import': {
        const result = await importAdvertisers(redis, backup!);
        let lifted = 0;
        for (const a of backup!.advertisers) lifted += await liftAuthFailureBlocks(redis, a.id);
        if (json) out(JSON.stringify({ ...result, liftedBlocks: lifted }));
        else
          out(
            `imported ${result.added.length} advertisers${result.skipped.length ? `; skipped ${result.skipped.length} already here: ${result.skipped.join(', ')}` : ''}${liftedLine(lifted)}`,
          );
        return 0;
      }
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

runCommand(run, USAGE, (err) => err instanceof AdvertiserError);
