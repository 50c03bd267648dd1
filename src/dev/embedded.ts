/**
 * `npm start`: the embedded default. Without REDIS_URL it starts a private redis-server (data under
 * .data/, git-ignored), seeds a demo advertiser, then runs the API, the worker and the price feed
 * as child processes. Ctrl-C or SIGTERM stops everything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { AdvertiserKeys } from '../auth/advertiser-keys.js';
import { ConfigError, loadConfig } from '../config.js';
import { EXIT_WITH_PARENT_ENV, onParentExit } from './parent-watch.js';
import { stopChild } from './stop-child.js';
import { MissingRedisError, startPrivateRedis, type PrivateRedis } from './private-redis.js';

const DEMO_ADVERTISER = 'demo-advertiser';
const root = resolve(import.meta.dirname, '../..');

async function seedDemoAdvertiser(redisUrl: string, pepper: string): Promise<string> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    const keys = new AdvertiserKeys(redis, pepper);
    const now = new Date();
    const existing = (await keys.list()).some((a) => a.id === DEMO_ADVERTISER);
    // A fresh key every start: keys are shown once and never stored in clear.
    return existing ? await keys.rotate(DEMO_ADVERTISER, now) : await keys.create(DEMO_ADVERTISER, 'Demo advertiser', now);
  } finally {
    redis.disconnect();
  }
}

async function waitReady(base: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function main(): Promise<void> {
  let redis: PrivateRedis | undefined;
  const env = { ...process.env };
  if (!env.REDIS_URL) {
    try {
      redis = await startPrivateRedis({ dataDir: resolve(root, '.data/redis') });
    } catch (err) {
      if (err instanceof MissingRedisError) {
        process.stderr.write(`${err.message}\n`);
        process.exit(1);
      }
      throw err;
    }
    env.REDIS_URL = redis.url;
  }
  // From localhost the IP lookup finds no country: the demo stands in as a US visitor unless told otherwise.
  const demoGeo = !env.DEFAULT_GEO;
  if (demoGeo) env.DEFAULT_GEO = 'US';
  const config = loadConfig(env);
  const children: ChildProcess[] = [];
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(children.map((child) => stopChild(child)));
    await redis?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  onParentExit(() => void stopAll(0));

  const apiKey = await seedDemoAdvertiser(config.redisUrl, config.apiKeyPepper);

  for (const [name, entry] of [['api', 'src/main.ts'], ['worker', 'workers/main.ts'], ['feed', 'workers/feed/main.ts']] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, entry)], {
      env: { ...env, [EXIT_WITH_PARENT_ENV]: '1' },
      stdio: 'inherit',
      cwd: root,
    });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        process.stderr.write(`${name} exited (${signal ?? code}); stopping everything\n`);
        void stopAll(1);
      }
    });
    children.push(child);
  }

  const base = `http://localhost:${config.port}`;
  const ready = await waitReady(base, 30_000);
  process.stdout.write(
    [
      '',
      `predictwire ${ready ? 'is ready' : 'started (not ready yet: see /readyz)'}`,
      `  redis        ${config.redisUrl}${redis ? ' (private, data in .data/redis)' : ''}`,
      `  geo          DEFAULT_GEO=${env.DEFAULT_GEO}${demoGeo ? ' (demo default: local callers count as US visitors; set DEFAULT_GEO to change)' : ''}`,
      `  broad        ${base}/v1/widgets/broad?limit=5`,
      `  event        ${base}/v1/widgets/event?slug=fed-december-2026`,
      `  sportsbook   ${base}/v1/widgets/sportsbook?league=NBA`,
      `  live market  ${base}/v1/widgets/live-market?asset=BTC&horizon_minutes=15`,
      `  websocket    ${base.replace('http', 'ws')}/v1/ws  {"op":"subscribe","topic":"live-market:ETH:15"}`,
      `  events list  curl -H 'x-advertiser-id: ${DEMO_ADVERTISER}' -H 'x-api-key: ${apiKey}' ${base}/advertiser/v1/widgets/events`,
      `  readiness    ${base}/readyz`,
      '',
      `  demo advertiser: x-advertiser-id=${DEMO_ADVERTISER}  x-api-key=${apiKey}  (new key every start)`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
