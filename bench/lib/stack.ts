/** The service the benchmarks run against: a private Redis, the worker, the price feed, API processes. */
import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '../../src/runtime/private-redis.js';
import type { Asset, Horizon } from '../../src/model/index.js';
import { ticksChannel } from '../../src/store/keys.js';
import { seedStrike } from '../../test/support/live.js';
import { advertiserKeys, testEnv, waitFor, type ServiceProcess } from '../../test/support/service.js';
import { pinPid, spawnTs, type SpawnOptions } from './procs.js';

export const BENCH_ADVERTISER = 'bench-advertiser';

/**
 * The API's environment for benchmarks: production refresh intervals (not the tests' 1 s), quiet
 * logs, and every per-address limit lifted, since all load comes from one loopback address.
 */
export function apiEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = testEnv(redisUrl, {
    LOG_LEVEL: 'warn',
    DRAIN_SECONDS: '0',
    RATE_LIMIT_ADVERTISER: '9999999/1',
    RATE_LIMIT_VARIANT_BUILD: '9999999/1',
    RATE_LIMIT_READYZ: '9999999/1',
    RATE_LIMIT_WS_UPGRADE: '9999999/1',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    WS_MAX_MESSAGES_PER_SECOND: '10000',
    ...extra,
  });
  for (const k of ['REFRESH_EVENTS_SECONDS', 'REFRESH_SPORTSBOOK_SECONDS', 'REFRESH_METRICS_SECONDS'])
    if (!(k in extra)) delete env[k];
  return env;
}

export interface Stack {
  redis: PrivateRedis;
  client: Redis;
  /** Started with `withData`: the worker and the simulator price feed. */
  background: ServiceProcess[];
  apiKey: string;
  startApi(extra?: Record<string, string>, opts?: SpawnOptions): Promise<ServiceProcess>;
  startFeed(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** The first tick the feed publishes for `asset`. */
function firstTick(redisUrl: string, asset: Asset, timeoutMs = 30_000): Promise<number> {
  const sub = new Redis(redisUrl);
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${asset} tick within ${timeoutMs} ms`)), timeoutMs);
    sub.on('message', (_channel: string, message: string) => {
      clearTimeout(timer);
      resolve((JSON.parse(message) as { price: number }).price);
    });
    void sub.subscribe(ticksChannel(asset));
  }).finally(() => sub.disconnect());
}

export interface StackOptions {
  /** Start the worker (snapshots) and the simulator feed, and seed the live strikes from its prices. */
  withData: boolean;
  /** CPUs for Redis, the worker and the feed (keeps them off the server's core). */
  backgroundCpus?: number | string;
  /** Strikes to seed when the feed does not run (asset, horizon, price). */
  strikes?: Array<[Asset, Horizon, number]>;
  /**
   * With `withData`: the data is loaded once and then held still. The worker refreshes once a day
   * (the API is told the same, so nothing turns stale) and the feed stops once the strikes are
   * seeded; the clock still moves (the live widgets' countdown).
   */
  stillData?: boolean;
}

/** Refresh intervals that keep loaded data still for a benchmark's length. */
const STILL: Record<string, string> = {
  REFRESH_EVENTS_SECONDS: '86400',
  REFRESH_SPORTSBOOK_SECONDS: '86400',
  REFRESH_METRICS_SECONDS: '86400',
};

/** Starts Redis (and with `withData` the worker and feed) and an advertiser key. */
export async function startStack(o: StackOptions): Promise<Stack> {
  const redis = await startPrivateRedis();
  if (o.backgroundCpus !== undefined) pinPid(redis.process.pid!, o.backgroundCpus);
  const client = new Redis(redis.url);
  const background: ServiceProcess[] = [];
  const still = o.stillData ? STILL : {};
  const env = apiEnv(redis.url, still);
  const startFeed = async () => {
    const feed = await spawnTs('workers/feed/main.ts', env, { cpus: o.backgroundCpus });
    background.push(feed);
    return feed;
  };
  if (o.withData) {
    background.push(await spawnTs('workers/main.ts', env, { cpus: o.backgroundCpus }));
    const [btc, eth] = await Promise.all([firstTick(redis.url, 'BTC'), firstTick(redis.url, 'ETH'), startFeed()]);
    // The API reads strikes at start: one started mid-window has none of its own (no_strike).
    for (const h of [5, 15] as const)
      await Promise.all([seedStrike(client, 'BTC', h, btc), seedStrike(client, 'ETH', h, eth)]);
    if (o.stillData) await background.pop()!.stop();
  }
  for (const [asset, h, price] of o.strikes ?? []) await seedStrike(client, asset, h, price);
  const apiKey = await advertiserKeys(client).create(BENCH_ADVERTISER, 'Benchmark', new Date());
  const apis: ServiceProcess[] = [];
  return {
    redis,
    client,
    background,
    apiKey,
    startFeed,
    async startApi(extra = {}, opts = {}) {
      const api = await spawnTs('src/main.ts', apiEnv(redis.url, { ...still, ...extra }), opts);
      apis.push(api);
      await waitFor(`${api.base}/${o.withData ? 'readyz' : 'healthz'}`, (s) => s === 200, api, 90_000);
      return api;
    },
    async stop() {
      await Promise.all([...apis, ...background].map((p) => p.stop()));
      client.disconnect();
      await redis.stop();
    },
  };
}
