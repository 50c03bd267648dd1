/**
 * `npm run advertiser -- create <id> [name] | rotate <id> | revoke <id> | list`
 * Manages advertiser API keys in the configured Redis (REDIS_URL). Keys are printed once.
 */
import { Redis } from 'ioredis';
import { AdvertiserError, AdvertiserKeys } from '../auth/advertiser-keys.js';
import { ConfigError, loadConfig } from '../config.js';

const USAGE = 'usage: npm run advertiser -- create <id> [name] | rotate <id> | revoke <id> | list';

async function run(argv: string[]): Promise<number> {
  const [command, id, ...rest] = argv;
  const config = loadConfig();
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const keys = new AdvertiserKeys(redis, config.apiKeyPepper);
  const now = new Date();
  try {
    switch (command) {
      case 'create':
      case 'rotate': {
        if (!id) break;
        const key = command === 'create' ? await keys.create(id, rest.join(' ') || id, now) : await keys.rotate(id, now);
        process.stdout.write(`advertiser ${id}\napi key    ${key}\n(shown once: store it now)\n`);
        return 0;
      }
      case 'revoke':
        if (!id) break;
        await keys.revoke(id, now);
        process.stdout.write(`advertiser ${id} revoked\n`);
        return 0;
      case 'list':
        for (const a of await keys.list()) {
          process.stdout.write(`${a.id}\t${a.status}\t${a.name}\tcreated ${a.createdAt}${a.rotatedAt ? `\trotated ${a.rotatedAt}` : ''}\n`);
        }
        return 0;
    }
    process.stderr.write(`${USAGE}\n`);
    return 2;
  } finally {
    redis.disconnect();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof AdvertiserError || err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
