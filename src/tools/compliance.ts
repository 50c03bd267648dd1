/**
 * `npm run compliance -- <command>`: what a compliance officer does without a release. See USAGE and
 * docs/compliance.md. Suspensions, published rules and the audit live in Redis (reached as the
 * advertiser tool reaches it); every API process of every instance applies a change within seconds.
 */
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { BUNDLED_RULES } from '../catalog/compliance/bundled.js';
import { overdueRows } from '../catalog/compliance/review.js';
import { compileRulesText, RulesError, type ComplianceRules } from '../catalog/compliance/rules.js';
import {
  publishRules,
  readAudit,
  readCompliance,
  resume,
  StaleRevisionError,
  suspend,
} from '../catalog/compliance/store.js';
import { Suspension, type AuditEntry } from '../catalog/compliance/suspensions.js';
import { OPERATORS } from '../catalog/operators.js';
import { EnvSchema } from '../config.js';
import { ConfigError } from '../runtime/config-error.js';
import { Category } from '../model/index.js';
import { openRedis } from './redis-connection.js';
import { runCommand, UsageError } from './run-command.js';
import { systemClock } from '../model/clock.js';

const USAGE = `usage: npm run compliance -- <command> [options]

commands:
  suspend              withdraw an operator from a jurisdiction now, on every surface or one:
                       --operator <id> --jurisdiction <code> [--surface <category>] --reason "..."
  resume               end that suspension (same --operator, --jurisdiction, --surface) --reason "..."
  list                 active suspensions and the latest changes (who, when, why)
  audit                rule rows whose review is older than COMPLIANCE_REVIEW_DAYS
                       (the rules in force; --file <rules.json> for a file instead)
  check <file>         checks a rules document without publishing it
  publish <file>       checks a rules document and makes it the rules of every API process
                       (its "revision" must be above the one in force) --reason "..."

options:
  --by <name>          who makes the change (default: your login and host), kept in the audit
  --limit <n>          changes shown by list (default 20)
  --json               machine-readable output on stdout
  -h, --help           this text

Surfaces are contract categories: ${Category.options.join(', ')}.
Jurisdictions: a country (GB) or, in the US and Canada, a state or province (US-MI, CA-ON);
a country suspends every region of it.
Redis: REDIS_SENTINELS (with REDIS_SENTINEL_MASTER) or REDIS_URL, as the API reads them,
else the private Redis of \`npm start\` running in this folder.`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const operatorIds = OPERATORS.map((op) => op.id);

/** A rules document from `file`, checked; a RulesError naming each bad row otherwise. */
function readRules(file: string): { text: string; rules: ComplianceRules } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  return { text, rules: compileRulesText(text, operatorIds, file) };
}

/** The rules every API process applies: a published document newer than the bundled one, else the bundled one. */
async function rulesInForce(redis: Redis): Promise<{ rules: ComplianceRules; from: string }> {
  const { rules } = await readCompliance(redis);
  if (!rules || rules.revision <= BUNDLED_RULES.revision)
    return { rules: BUNDLED_RULES, from: `bundled rules (revision ${BUNDLED_RULES.revision})` };
  return {
    rules: compileRulesText(rules.text, operatorIds, 'published rules'),
    from: `published rules (revision ${rules.revision})`,
  };
}

const surfaceText = (surface: string | null | undefined) => surface ?? 'every surface';
const describeEntry = (e: AuditEntry) =>
  `${e.at}  ${e.action}${e.operator ? `  ${e.operator} ${e.jurisdiction} ${surfaceText(e.surface)}` : ''}${e.rules_revision ? `  rules revision ${e.rules_revision}` : ''}  by ${e.by}: ${e.reason}`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      operator: { type: 'string' },
      jurisdiction: { type: 'string' },
      surface: { type: 'string' },
      reason: { type: 'string' },
      by: { type: 'string' },
      file: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, file] = positionals;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const known = ['suspend', 'resume', 'list', 'audit', 'check', 'publish'];
  if (!command || !known.includes(command))
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  const by = values.by ?? `${userInfo().username}@${hostname()}`;
  const at = new Date(systemClock()).toISOString();

  // Checked before Redis is asked: a bad argument or file is the user's to fix, whatever Redis says.
  let pair: Pick<Suspension, 'operator' | 'jurisdiction' | 'surface'> | undefined;
  if (command === 'suspend' || command === 'resume') {
    if (!values.operator || !values.jurisdiction)
      throw new UsageError(`${command} needs --operator and --jurisdiction`);
    if (!values.reason) throw new UsageError(`${command} needs --reason: every change is audited with why`);
    const parsed = Suspension.safeParse({
      operator: values.operator,
      jurisdiction: values.jurisdiction,
      surface: values.surface ?? null,
      reason: values.reason,
      by,
      at,
    });
    if (!parsed.success)
      throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
    if (!operatorIds.includes(values.operator))
      throw new UsageError(`--operator: no operator "${values.operator}" (${operatorIds.join(', ')})`);
    pair = parsed.data;
  }
  if ((command === 'check' || command === 'publish') && !file) throw new UsageError(`${command} needs the rules file`);
  if (command === 'publish' && !values.reason)
    throw new UsageError('publish needs --reason: every change is audited with why');
  const document = command === 'check' || command === 'publish' ? readRules(file!) : undefined;
  if (command === 'check') {
    out(
      values.json
        ? JSON.stringify({ file, revision: document!.rules.revision, rows: document!.rules.rows().length })
        : `${file}: valid (revision ${document!.rules.revision}, ${document!.rules.rows().length} rows)`,
    );
    return 0;
  }
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError('--limit must be a whole number from 1 to 10000');

  if (command === 'publish' && document!.rules.revision <= BUNDLED_RULES.revision) {
    throw new UsageError(
      `${file}: revision ${document!.rules.revision} is not above the release's own rules (revision ${BUNDLED_RULES.revision}), which would win over it`,
    );
  }
  // A file's audit needs no Redis.
  if (command === 'audit' && values.file)
    return audit(readRules(values.file).rules, values.file, reviewDays(process.env), values.json);
  const { redis, config } = await openRedis();
  try {
    switch (command) {
      case 'suspend': {
        const revision = await suspend(redis, { ...pair!, reason: values.reason!, by, at });
        out(
          values.json
            ? JSON.stringify({ ...pair, revision })
            : `suspended ${pair!.operator} in ${pair!.jurisdiction} (${surfaceText(pair!.surface)}); every API process applies it within seconds`,
        );
        return 0;
      }
      case 'resume': {
        const revision = await resume(redis, pair!, by, values.reason!, at);
        if (revision === undefined) {
          process.stderr.write(
            `no suspension of ${pair!.operator} in ${pair!.jurisdiction} (${surfaceText(pair!.surface)}): see npm run compliance -- list\n`,
          );
          return 1;
        }
        out(
          values.json
            ? JSON.stringify({ ...pair, revision, resumed: true })
            : `resumed ${pair!.operator} in ${pair!.jurisdiction} (${surfaceText(pair!.surface)})`,
        );
        return 0;
      }
      case 'publish': {
        const revision = await publishRules(redis, document!.text, document!.rules.revision, by, values.reason!, at);
        out(
          values.json
            ? JSON.stringify({ file, rules_revision: document!.rules.revision, revision })
            : `published ${file} (rules revision ${document!.rules.revision}); every API process applies it within seconds`,
        );
        return 0;
      }
      case 'audit': {
        const { rules, from: source } = await rulesInForce(redis);
        return audit(rules, source, config.complianceReviewDays, values.json);
      }
      default: {
        const { suspensions, revision } = await readCompliance(redis);
        const changes = await readAudit(redis, limit);
        if (values.json) {
          out(JSON.stringify({ revision, suspensions, changes }, null, 2));
          return 0;
        }
        out(`active suspensions (${suspensions.length}):`);
        for (const s of suspensions)
          out(`  ${s.operator}  ${s.jurisdiction}  ${surfaceText(s.surface)}  since ${s.at} by ${s.by}: ${s.reason}`);
        out(`latest changes (newest first):`);
        for (const e of changes) out(`  ${describeEntry(e)}`);
        return 0;
      }
    }
  } finally {
    redis.disconnect();
  }
}

/** COMPLIANCE_REVIEW_DAYS as the API reads it. @throws ConfigError for a bad value */
function reviewDays(env: NodeJS.ProcessEnv): number {
  const parsed = EnvSchema.shape.COMPLIANCE_REVIEW_DAYS.safeParse(env.COMPLIANCE_REVIEW_DAYS || undefined);
  if (!parsed.success) throw new ConfigError(`COMPLIANCE_REVIEW_DAYS: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** Prints the rows of `rules` overdue for review (the date is the process clock's). */
function audit(rules: ComplianceRules, source: string, reviewDays: number, json: boolean): number {
  const rows = overdueRows(rules, systemClock(), reviewDays);
  if (json) out(JSON.stringify({ source, review_days: reviewDays, overdue: rows }, null, 2));
  else {
    out(`${source}: ${rows.length} of ${rules.rows().length} rows reviewed more than ${reviewDays} days ago`);
    for (const r of rows) out(`  ${r.table} ${r.id}  reviewed ${r.reviewedOn} (${r.ageDays} days ago)`);
  }
  return 0;
}

runCommand(run, USAGE, (err) => err instanceof RulesError || err instanceof StaleRevisionError);
