/**
 * `npm start`: the embedded default. Without REDIS_URL it starts a private redis-server (data under
 * DATA_DIR, default .data/, git-ignored; one launcher per folder), seeds a demo advertiser, then
 * runs the API, the worker and the price feed as supervised child processes: one that crashes is
 * restarted with backoff while the others keep serving. Ctrl-C or SIGTERM stops everything it
 * started; if the launcher is killed hard, its children and its redis-server follow it down.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { AdvertiserKeys } from '../auth/advertiser-keys.js';
import { loadConfig, type Config } from '../config.js';
import { ConfigError } from '../runtime/config-error.js';
import { DataDirLockedError, lockDataDir } from '../runtime/data-lock.js';
import { exitWithMe, onParentExit } from '../runtime/parent-watch.js';
import { prettyPipe } from './pretty-logs.js';
import { MissingRedisError, startPrivateRedis, type PrivateRedis } from '../runtime/private-redis.js';
import { dataDir, forgetRedisUrl, recordRedisUrl } from '../runtime/redis-url-file.js';
import { supervise, type Supervised } from '../runtime/supervise.js';
import { nodeFlagsFor } from '../runtime/node-flags.js';
import { STOP_SIGNALS } from '../runtime/shutdown.js';
import { connectOnce, describeTarget, RedisUnreachableError } from '../store/redis-once.js';
import { monotonicClock, systemClock } from '../model/clock.js';
import { simulatorSlug } from '../sources/simulator/event-catalog.js';

const DEMO_ADVERTISER = 'demo-advertiser';
const root = resolve(import.meta.dirname, '../..');
const CHILDREN = [
  ['api', 'src/main.ts'],
  ['worker', 'workers/main.ts'],
  ['feed', 'workers/feed/main.ts'],
] as const;

/**
 * The node arguments that run a child's `entry` as this launcher runs: through tsx from the source
 * tree (`npm start`), or as the compiled JavaScript beside it (a build), where tsx has nothing to do.
 */
function childArgs(entry: string): string[] {
  const compiled = import.meta.url.endsWith('.js');
  const path = resolve(root, compiled ? entry.replace(/\.ts$/, '.js') : entry);
  return [...nodeFlagsFor(entry), ...(compiled ? [] : ['--import', 'tsx']), path];
}

/** What to set when the Redis the environment names does not answer. */
const REDIS_HINT = {
  REDIS_SENTINELS:
    'set REDIS_SENTINELS (and REDIS_SENTINEL_MASTER) to sentinels that answer and know the primary, or unset them and REDIS_URL to let npm start run its own Redis',
  REDIS_URL: 'set REDIS_URL to a Redis that answers, or unset it to let npm start run its own',
};

async function seedDemoAdvertiser(config: Config, from: keyof typeof REDIS_HINT | 'npm start'): Promise<string> {
  let redis: Redis;
  try {
    redis = await connectOnce(config.redis, from);
  } catch (err) {
    // One line saying what to set, not a stack trace.
    if (err instanceof RedisUnreachableError && from !== 'npm start')
      throw new ConfigError(`${err.message.replace(/\.$/, '')}; ${REDIS_HINT[from]}`);
    throw err;
  }
  try {
    const keys = new AdvertiserKeys(redis, config.apiKeyPepper);
    const now = new Date(systemClock());
    const existing = (await keys.list()).some((a) => a.id === DEMO_ADVERTISER);
    // A fresh key every start (keys are shown once, never stored in clear); the previous one is retired.
    if (!existing) return await keys.create(DEMO_ADVERTISER, 'Demo advertiser', now);
    const key = await keys.rotate(DEMO_ADVERTISER, now);
    await keys.retire(DEMO_ADVERTISER, now);
    return key;
  } finally {
    redis.disconnect();
  }
}

/** The admin listener's host as a client reaches it. */
const reachable = (host: string) =>
  host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

/** True when the process answering `/healthz` on the admin port is `pid` (one probe, 2 s at most). */
async function answersAsItself(host: string, port: number, pid: number | undefined): Promise<boolean> {
  const res = await fetch(`http://${reachable(host)}:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(
    () => undefined,
  );
  const body = (await res?.json().catch(() => ({}))) as { pid?: unknown } | undefined;
  return body?.pid === pid;
}

/**
 * The child's metrics URL when the process answering on its admin port is that child (its
 * `/healthz` names its pid); else what went wrong, so the banner never shows another process's.
 */
async function ownAdminUrl(host: string, port: number, pid: number | undefined): Promise<string> {
  const probeHost = reachable(host);
  const deadline = monotonicClock() + 3_000; // a child binds its admin port just after it starts serving
  let answer = 'not listening';
  while (monotonicClock() < deadline) {
    const res = await fetch(`http://${probeHost}:${port}/healthz`).catch(() => undefined); // not listening (yet)
    if (res) {
      const body = (await res.json().catch(() => ({}))) as { pid?: unknown };
      if (body.pid === pid) return `http://${probeHost}:${port}/metrics`;
      answer = 'taken by another process';
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return `port ${port} ${answer}: no metrics`;
}

async function waitReady(base: string, timeoutMs: number): Promise<boolean> {
  const deadline = monotonicClock() + timeoutMs;
  while (monotonicClock() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const say = (line: string) => process.stderr.write(`launcher: ${line}\n`);

async function main(): Promise<void> {
  let redis: PrivateRedis | undefined;
  let unlock: (() => void) | undefined;
  const env = { ...process.env };
  const dir = dataDir(env);
  // Redis named by the environment (one server or Sentinel) is used as it is; else a private one.
  const from = env.REDIS_SENTINELS ? 'REDIS_SENTINELS' : env.REDIS_URL ? 'REDIS_URL' : 'npm start';
  if (from === 'npm start') {
    try {
      unlock = lockDataDir(dir);
      redis = await startPrivateRedis({ dataDir: join(dir, 'redis') });
    } catch (err) {
      unlock?.();
      if (err instanceof MissingRedisError || err instanceof DataDirLockedError) {
        process.stderr.write(`${err.message}\n`);
        process.exit(1);
      }
      throw err;
    }
    env.REDIS_URL = redis.url;
    recordRedisUrl(dir, redis.url);
  }
  // From localhost the IP lookup finds no country: the demo stands in as a US visitor unless told otherwise.
  const demoGeo = !env.DEFAULT_GEO;
  if (demoGeo) env.DEFAULT_GEO = 'US-NJ';
  const config = loadConfig(env);
  const children: Supervised[] = [];
  let stopping = false;

  /** Stops everything started, says `why` (if anything), and exits with `code`. */
  const stopAll = async (code: number, why?: string) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(children.map((child) => child.stop()));
    if (redis) forgetRedisUrl(dir);
    await redis?.stop();
    unlock?.();
    if (why) process.stderr.write(`${why}\n`);
    process.exit(code);
  };
  // Every signal the processes themselves stop on (a closed terminal's SIGHUP too) stops them all.
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stopAll(0));
  onParentExit(() => void stopAll(0));

  let apiKey: string;
  try {
    apiKey = await seedDemoAdvertiser(config, from);
  } catch (err) {
    return stopAll(1, failure(err));
  }

  for (const [name, entry] of CHILDREN) {
    const start = () => {
      const child = spawn(process.execPath, childArgs(entry), {
        env: { ...env, ...exitWithMe() },
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: root,
      });
      void prettyPipe(child.stdout);
      return child;
    };
    const adminPort = { api: config.admin.apiPort, worker: config.admin.workerPort, feed: config.admin.feedPort }[name];
    children.push(
      supervise(name, start, {
        notify: say,
        // Through the child's own admin /healthz (when it has one): a hung or stopped child is restarted.
        liveness: adminPort
          ? {
              probe: (child) => answersAsItself(config.admin.host, adminPort, child.pid),
              hangMs: config.hangSeconds * 1000,
            }
          : undefined,
        onFatal: (child, code) => {
          say(`${child} cannot start (exit ${code}); stopping everything`);
          void stopAll(1);
        },
      }),
    );
  }

  const base = `http://localhost:${config.port}`;
  const ready = await waitReady(base, 30_000);
  const [apiAdmin, workerAdmin, feedAdmin] = await Promise.all(
    (
      [
        [config.admin.apiPort, 0],
        [config.admin.workerPort, 1],
        [config.admin.feedPort, 2],
      ] as const
    ).map(([port, i]) =>
      port ? ownAdminUrl(config.admin.host, port, children[i]!.current()?.pid) : Promise.resolve('off'),
    ),
  );
  process.stdout.write(
    [
      '',
      `predictwire ${ready ? 'is ready' : 'started (not ready yet: see /readyz)'}`,
      `  redis        ${describeTarget(config.redis)}${redis ? ` (private, data in ${join(dir, 'redis')})` : ''}`,
      `  geo          DEFAULT_GEO=${env.DEFAULT_GEO}${demoGeo ? ' (demo default: local callers count as visitors in New Jersey; set DEFAULT_GEO to change)' : ''}`,
      ...(config.demoEnabled
        ? [`  demo page    ${base}/demo  (every widget, light and dark, with the two lines to embed it)`]
        : []),
      `  broad        ${base}/v1/widgets/broad?limit=5`,
      `  event        ${base}/v1/widgets/event?slug=${simulatorSlug('KXFEDDECISION', new Date(systemClock()))}`,
      `  sportsbook   ${base}/v1/widgets/sportsbook?league=NBA`,
      `  live market  ${base}/v1/widgets/live-market?asset=BTC&horizon_minutes=15`,
      `  websocket    ${base.replace('http', 'ws')}/v1/ws  {"op":"subscribe","topic":"live-market:ETH:15"}`,
      `  events list  curl -H "x-advertiser-id: ${DEMO_ADVERTISER}" -H "x-api-key: $KEY" ${base}/advertiser/v1/widgets/events`,
      `  readiness    ${base}/readyz`,
      `  metrics      ${apiAdmin} (worker ${workerAdmin}, feed ${feedAdmin})`,
      '',
      `  demo advertiser: x-advertiser-id=${DEMO_ADVERTISER}  x-api-key=${apiKey}  (new key every start)`,
      '  In another shell:',
      `    export KEY=${apiKey}`,
      `    export REDIS_URL=${config.redisUrl}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** A failure as the launcher reports it: one line for what the user can fix, the stack otherwise. */
const failure = (err: unknown) => (err instanceof ConfigError ? err.message : String((err as Error)?.stack ?? err));

main().catch((err: unknown) => {
  process.stderr.write(`${failure(err)}\n`);
  process.exit(1);
});
