/**
 * `npm run postback -- <command>`: manages operators' postback secrets, as `npm run advertiser`
 * manages advertiser keys (docs/operations.md, docs/postbacks.md). See USAGE.
 */
import { parseArgs } from 'node:util';
import { PostbackSecretError, PostbackSecrets, type OperatorSecretsRecord } from '../auth/postback-secrets.js';
import { operatorById } from '../catalog/operators.js';
import { openRedis } from './redis-connection.js';
import { runCommand, UsageError } from './run-command.js';
import { systemClock } from '../model/clock.js';

const USAGE = `usage: npm run postback -- <command> [--json]

commands:
  create <operator>    the operator's first postback secret (shown once); the operator
                       signs its postbacks with it (docs/postbacks.md)
  rotate <operator>    adds a new secret; the previous one keeps verifying until retire
                       (or the next rotate), so the operator can switch without a gap
  retire <operator>    ends a rotation: the previous secret stops verifying at once
  revoke <operator>    every secret of the operator stops verifying at once
  list                 operators with secrets, their status and live secrets (created,
                       last used)

options:
  --json               machine-readable output on stdout
  -h, --help           this text

Redis: REDIS_SENTINELS (with REDIS_SENTINEL_MASTER) or REDIS_URL, as the API reads them,
else the private Redis of \`npm start\` running in this folder.
Secrets are derived with API_KEY_PEPPER: use the same value as the API.`;

const out = (text: string) => process.stdout.write(`${text}\n`);

function printList(list: OperatorSecretsRecord[]): void {
  for (const o of list) {
    out(
      `${o.operatorId}\t${o.status}\tcreated ${o.createdAt}${o.rotatedAt ? `\trotated ${o.rotatedAt}` : ''}${o.revokedAt ? `\trevoked ${o.revokedAt}` : ''}`,
    );
    for (const s of o.secrets)
      out(`  secret ${s.secretId}\tcreated ${s.createdAt}\tlast used ${s.lastUsedAt ?? 'never'}`);
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const [command, operator] = positionals;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (!command || !['create', 'rotate', 'retire', 'revoke', 'list'].includes(command))
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  if (command !== 'list' && !operator) throw new UsageError(`${command} needs an operator id`);
  // A secret for an operator we do not list could sign nothing we would count.
  if (command === 'create' && !operatorById(operator!))
    throw new UsageError(`no operator "${operator}" in the catalog`);

  // Redis and the pepper (with its production checks) come from the same settings the API reads.
  const { redis, config } = await openRedis();
  try {
    const secrets = new PostbackSecrets(redis, config.apiKeyPepper);
    const now = new Date(systemClock());
    const json = values.json;
    switch (command) {
      case 'create':
      case 'rotate': {
        const secret =
          command === 'create' ? await secrets.create(operator!, now) : await secrets.rotate(operator!, now);
        if (json) out(JSON.stringify({ operatorId: operator, secret, createdAt: now.toISOString() }));
        else
          out(
            `operator ${operator}\nsecret     ${secret}\n(shown once: hand it to the operator now${command === 'rotate' ? '; the previous secret verifies until `retire`' : ''})`,
          );
        return 0;
      }
      case 'retire': {
        const retired = await secrets.retire(operator!);
        if (json) out(JSON.stringify({ operatorId: operator, retired }));
        else
          out(
            retired ? `operator ${operator}: previous secret retired` : `operator ${operator} has no previous secret`,
          );
        return 0;
      }
      case 'revoke':
        await secrets.revoke(operator!, now);
        if (json) out(JSON.stringify({ operatorId: operator, status: 'revoked', revokedAt: now.toISOString() }));
        else out(`operator ${operator}: postback secrets revoked`);
        return 0;
      default: {
        const list = await secrets.list();
        if (json) out(JSON.stringify(list, null, 2));
        else printList(list);
        return 0;
      }
    }
  } finally {
    redis.disconnect();
  }
}

runCommand(run, USAGE, (err) => err instanceof PostbackSecretError);
