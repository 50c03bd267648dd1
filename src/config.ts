/**
 * Environment → typed configuration, validated once. A bad value stops start-up with a message that
 * names the variable.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DATA_KINDS, OperatorId, type DataKind } from './model/index.js';
import { CDN_NAMES, type CdnName } from './geo/cdn-headers.js';
import { invalidRanges } from './geo/cidr.js';
import { parseJurisdiction } from './geo/jurisdiction-code.js';
import { dataDir } from './process/redis-url-file.js';

/**
 * `SOURCES` picks a source per data kind: `simulator` for all, or a comma list such as
 * `events=simulator,sportsbook=simulator`. Unnamed kinds stay on the simulator.
 */
const SourcesSpec = z.string().transform((raw, ctx) => {
  const out: Record<DataKind, string> = { events: 'simulator', sportsbook: 'simulator', metrics: 'simulator', fx: 'simulator', prices: 'simulator', quotes: 'simulator' };
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [kind, name] = part.includes('=') ? part.split('=', 2).map((s) => s.trim()) : [undefined, part];
    if (!name || !/^[a-z][a-z0-9+-]*$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: `bad source "${part}"` });
      continue;
    }
    if (kind === undefined) {
      for (const k of DATA_KINDS) out[k] = name;
    } else if ((DATA_KINDS as readonly string[]).includes(kind)) {
      out[kind as DataKind] = name;
    } else {
      ctx.addIssue({ code: 'custom', message: `unknown data kind "${kind}" (one of ${DATA_KINDS.join(', ')})` });
    }
  }
  return out;
});

/** `host:port,host:port` → sentinel addresses; a bad entry is an issue naming it. */
function parseSentinels(raw: string, ctx: z.RefinementCtx): SentinelAddress[] {
  const out: SentinelAddress[] = [];
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    // The port is after the last colon, so a bracketed IPv6 host keeps its own colons.
    const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(part);
    const port = Number(m?.[2]);
    if (!m?.[1] || !(port > 0 && port < 65_536)) ctx.addIssue({ code: 'custom', message: `not host:port: "${part}"` });
    else out.push({ host: m[1], port });
  }
  if (out.length === 0) ctx.addIssue({ code: 'custom', message: 'list at least one sentinel as host:port' });
  return out;
}
/** `points/seconds`, e.g. `60/60`: at most `points` requests per `seconds` (per address or advertiser). */
const RateSpec = (def: string) =>
  z
    .string()
    .default(def)
    .transform((raw, ctx) => {
      const m = /^(\d{1,7})\/(\d{1,6})$/.exec(raw.trim());
      if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be points/seconds, such as 60/60' });
        return z.NEVER;
      }
      return { points: Number(m[1]), seconds: Number(m[2]) };
    });

const Seconds = (def: number) => z.coerce.number().positive().max(86_400).default(def);

/** A list of addresses or CIDR ranges, comma separated; syntax is checked where it is used (geo). */
const AddressList = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

/** Every setting, by environment variable name (tests read its keys and defaults). */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Redis Sentinel: `host:port` of each sentinel, comma separated; REDIS_URL then only carries the primary's password, db and TLS. */
  REDIS_SENTINELS: z
    .string()
    .optional()
    .transform((raw, ctx) => (raw === undefined ? undefined : parseSentinels(raw, ctx))),
  REDIS_SENTINEL_MASTER: z.string().min(1).default('mymaster'),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** HMAC key for click links; required in production, a fixed dev value otherwise. */
  CLICK_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Key for hashing advertiser API keys at rest. */
  API_KEY_PEPPER: z.string().min(32, 'must be at least 32 characters').optional(),
  TRUST_PROXY: AddressList.superRefine((list, ctx) => {
    const bad = invalidRanges(list);
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${bad.join(', ')}` });
  }),
  /** The jurisdiction of visitors nothing else places (local callers): a country or an ISO 3166-2 subdivision. */
  DEFAULT_GEO: z
    .string()
    .refine((s) => parseJurisdiction(s) !== undefined, 'must be an ISO 3166-1 alpha-2 code such as US or an ISO 3166-2 code such as US-NJ')
    .transform((s) => parseJurisdiction(s)!)
    .optional(),
  /** The CDN in front whose geo headers are believed from TRUST_PROXY peers (geo/cdn-headers.ts). */
  CDN_GEO: z.enum(CDN_NAMES).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SOURCES: SourcesSpec.prefault('simulator'),
  SIMULATOR_SEED: z.coerce.number().int().default(20261122),
  NODE_ENV: z.string().default('development'),
  /** Refresh intervals of the worker's job schedulers. */
  REFRESH_EVENTS_SECONDS: Seconds(5),
  REFRESH_SPORTSBOOK_SECONDS: Seconds(5),
  REFRESH_METRICS_SECONDS: Seconds(60),
  REFRESH_FX_SECONDS: Seconds(3600),
  /** A snapshot older than this many refresh intervals is stale in /readyz. */
  STALE_AFTER_INTERVALS: z.coerce.number().min(1).max(100).default(6),
  /** Advertiser comparison: A is the regulated exchange, B the crypto-based market. */
  ADVERTISER_OPERATOR_A: OperatorId.default('kalshi'),
  ADVERTISER_OPERATOR_B: OperatorId.default('polymarket'),
  /** Live market: the refresh interval a widget is told per horizon, staleness, push coalescing. */
  LIVE_REFRESH_SECONDS_5: z.coerce.number().int().min(1).max(300).default(2),
  LIVE_REFRESH_SECONDS_15: z.coerce.number().int().min(1).max(900).default(5),
  LIVE_STALE_AFTER_SECONDS: z.coerce.number().positive().max(3600).default(15),
  LIVE_PUSH_INTERVAL_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  /** Only a tick stamped within this many ms of a window's start may become its strike. */
  LIVE_STRIKE_MAX_LAG_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** Bytes a WebSocket client may fall behind by before it is dropped. */
  WS_MAX_BACKPRESSURE_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(256 * 1024),
  /** Seconds of silence before uWS pings a WebSocket client; one that does not answer is closed. */
  WS_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(8).max(960).default(32),
  COINBASE_WS_URL: z.url({ protocol: /^wss?$/ }).default('wss://ws-feed.exchange.coinbase.com'),
  /** Cache-Control max-age for widget responses. */
  WIDGET_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /** Broad-widget ranking: weights of the normalized signals, OI period, CTR window and prior. */
  RANK_WEIGHT_VOLUME: z.coerce.number().min(0).max(100).default(0.5),
  RANK_WEIGHT_OI_ACCEL: z.coerce.number().min(0).max(100).default(0.2),
  RANK_WEIGHT_CTR: z.coerce.number().min(0).max(100).default(0.3),
  RANK_OI_PERIOD_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  RANK_CTR_WINDOW_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  RANK_CTR_PRIOR_IMPRESSIONS: z.coerce.number().min(0).max(10_000_000).default(5000),
  /** Real upstream sources (used only when SOURCES names them); the defaults are the public hosts. */
  KALSHI_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://external-api.kalshi.com/trade-api/v2'),
  POLYMARKET_GAMMA_URL: z.url({ protocol: /^https?$/ }).default('https://gamma-api.polymarket.com'),
  POLYMARKET_CLOB_URL: z.url({ protocol: /^https?$/ }).default('https://clob.polymarket.com'),
  POLYMARKET_DATA_URL: z.url({ protocol: /^https?$/ }).default('https://data-api.polymarket.com'),
  ODDS_API_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.the-odds-api.com'),
  ODDS_API_KEY: z.string().min(1).optional(),
  ODDS_API_REGIONS: z.string().regex(/^[a-z]{2}(,[a-z]{2})*$/, 'comma list such as us,eu').default('us'),
  /** Each odds call costs quota: a league is fetched from The Odds API at most this often. */
  ODDS_API_MIN_INTERVAL_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  /** Credits the odds provider may spend per month; calls are paced so they last (x-requests-remaining). */
  ODDS_API_MONTHLY_CREDITS: z.coerce.number().int().positive().optional(),
  /** A refresh losing more than this share of the last good snapshot's events, outcomes or operators fails. */
  QUALITY_MAX_LOSS_SHARE: z.coerce.number().min(0).max(1).default(0.5),
  ECB_FX_URL: z.url({ protocol: /^https?$/ }).default('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml'),
  /** Venue up/down quotes (SOURCES quotes=venues): Polymarket's CLOB market channel, Kalshi's poll interval. */
  POLYMARKET_CLOB_WS_URL: z.url({ protocol: /^wss?$/ }).default('wss://ws-subscriptions-clob.polymarket.com/ws/market'),
  KALSHI_QUOTES_POLL_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  EVENT_CATALOG_FILE: z.string().min(1).optional(),
  /** Admin HTTP (/metrics, /healthz) of each process, never public: 0 turns one off. */
  ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).default(9465),
  FEED_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).default(9466),
  /** Rate limits (docs/operations.md "Limits"): points/seconds per client address or advertiser. */
  RATE_LIMIT_CLICK: RateSpec('60/60'),
  RATE_LIMIT_WS_UPGRADE: RateSpec('30/60'),
  RATE_LIMIT_READYZ: RateSpec('300/60'),
  RATE_LIMIT_VARIANT_BUILD: RateSpec('120/60'),
  RATE_LIMIT_ADVERTISER: RateSpec('1200/60'),
  AUTH_FAILURE_LIMIT: RateSpec('10/60'),
  AUTH_FAILURE_BLOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Open WebSocket connections per client address (IPv6: per /64), and in all (0: half the fd limit). */
  WS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
  WS_MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(0),
  WS_MAX_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Request-path Redis commands give up after this long (there is no offline queue on them). */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(300),
  /** Clicks held in memory while Redis is away; beyond this they are dropped and counted. */
  CLICK_BUFFER_MAX: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** Distinct operators one visitor's clicks count for per UTC day. */
  CLICK_MAX_PER_VISITOR_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  /** Successful advertiser key checks are reused this long (revocation still applies within a second). */
  ADVERTISER_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** While Redis is unreachable, a key that verified within this many seconds keeps working (0: none). */
  ADVERTISER_KEY_OUTAGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
  /** Share of requests logged at info level (0 to 1); problems of 500 and up are always logged. */
  ACCESS_LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.01),
  /** Seconds /readyz reports draining after SIGTERM before the listener closes (default 5 in production). */
  DRAIN_SECONDS: z.coerce.number().min(0).max(600).optional(),
  /** Serve the /demo page (default: on, except when NODE_ENV=production). */
  DEMO_ENABLED: z.enum(['true', 'false']).optional(),
  /** Local data folder: the launcher's Redis, and counts an API could not write when it stopped (default .data/). */
  DATA_DIR: z.string().min(1).optional(),
  /** A process whose event loop is stuck this long kills itself, and an API worker silent this long is killed by its primary; their supervisor restarts them. */
  HANG_SECONDS: z.coerce.number().int().min(2).max(3600).default(20),
  /** API processes sharing PORT (docs/operations.md "API workers"); unset: one per core. */
  API_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
});

export interface SentinelAddress {
  host: string;
  port: number;
}

/** Where Redis is: one server (`url`), or a primary found through Sentinel. */
export interface RedisTarget {
  /** The server; under Sentinel only its password, db and TLS are used (host and port come from Sentinel). */
  url: string;
  sentinel?: { sentinels: SentinelAddress[]; masterName: string; password: string | undefined };
}

export interface Config {
  port: number;
  host: string;
  /** REDIS_URL as given (under Sentinel: credentials only); connect through `redis`, which knows Sentinel. */
  redisUrl: string;
  redis: RedisTarget;
  publicBaseUrl: string;
  clickSigningSecret: string;
  apiKeyPepper: string;
  trustProxy: string[];
  defaultGeo: string | undefined;
  cdnGeo: CdnName | undefined;
  logLevel: string;
  sources: Record<DataKind, string>;
  simulatorSeed: number;
  production: boolean;
  refreshSeconds: { events: number; sportsbook: number; metrics: number; fx: number };
  staleAfterIntervals: number;
  advertiserOperators: { a: string; b: string };
  widgetMaxAgeSeconds: number;
  ranking: {
    weights: { volume: number; oiAccel: number; ctr: number };
    oiPeriodMinutes: number;
    ctrWindowDays: number;
    ctrPriorImpressions: number;
  };
  upstream: {
    kalshiBaseUrl: string;
    polymarketGammaUrl: string;
    polymarketClobUrl: string;
    polymarketClobWsUrl: string;
    kalshiQuotesPollMs: number;
    polymarketDataUrl: string;
    oddsApiBaseUrl: string;
    oddsApiKey: string | undefined;
    oddsApiRegions: string;
    oddsApiMinIntervalSeconds: number;
    oddsApiMonthlyCredits: number | undefined;
    qualityMaxLossShare: number;
    ecbFxUrl: string;
    timeoutMs: number;
    eventCatalogFile: string | undefined;
  };
  live: { refreshSeconds: { 5: number; 15: number }; staleAfterMs: number; pushIntervalMs: number; strikeMaxLagMs: number };
  coinbaseWsUrl: string;
  wsMaxBackpressureBytes: number;
  wsIdleTimeoutSeconds: number;
  /** Admin listeners (metrics and health) per process; port 0 means none. */
  admin: { host: string; apiPort: number; workerPort: number; feedPort: number };
  limits: {
    click: RateLimit;
    wsUpgrade: RateLimit;
    readyz: RateLimit;
    variantBuild: RateLimit;
    advertiser: RateLimit;
    authFailures: RateLimit;
    authBlockSeconds: number;
    wsPerAddress: number;
    /** 0: derived from the file-descriptor limit at start. */
    wsTotal: number;
    wsMessagesPerSecond: number;
  };
  redisCommandTimeoutMs: number;
  clickBufferMax: number;
  clickMaxPerVisitorDay: number;
  advertiserKeyCacheSeconds: number;
  advertiserKeyOutageSeconds: number;
  accessLogSampleRate: number;
  drainSeconds: number;
  /** API worker processes on the one port; 1 runs the API in this process, without a primary. */
  apiWorkers: number;
  hangSeconds: number;
  /** Whether /demo is served. */
  demoEnabled: boolean;
  /** Local data folder (absolute). */
  dataDir: string;
}

/** At most `points` requests per `seconds`. */
export interface RateLimit {
  points: number;
  seconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// Development-only fallbacks; production refuses to start without real values.
const DEV_CLICK_SECRET = 'predictwire-dev-click-secret-not-for-production';
const DEV_PEPPER = 'predictwire-dev-api-key-pepper-not-for-production';

/**
 * Reads configuration from an environment object.
 * @throws ConfigError naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as compose writes `${X:-}`) means "not set".
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  // Production needs real secrets, and click links that point at the public host, not localhost.
  const missing = production ? (['CLICK_SIGNING_SECRET', 'API_KEY_PEPPER', 'PUBLIC_BASE_URL'] as const).filter((k) => !e[k]) : [];
  if (missing.length > 0) {
    throw new ConfigError(`invalid configuration:\n  ${missing.join(', ')}: required when NODE_ENV=production`);
  }
  if (!e.REDIS_URL && !e.REDIS_SENTINELS) throw new ConfigError('invalid configuration:\n  REDIS_URL: required (npm start sets it for you), or REDIS_SENTINELS');
  // Under Sentinel a bare URL stands for "no password, db 0": ioredis takes host and port from Sentinel.
  const redisUrl = e.REDIS_URL ?? 'redis://localhost';
  return {
    port: e.PORT,
    host: e.HOST,
    redisUrl,
    redis: {
      url: redisUrl,
      ...(e.REDIS_SENTINELS && {
        sentinel: { sentinels: e.REDIS_SENTINELS, masterName: e.REDIS_SENTINEL_MASTER, password: e.REDIS_SENTINEL_PASSWORD },
      }),
    },
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    clickSigningSecret: e.CLICK_SIGNING_SECRET ?? DEV_CLICK_SECRET,
    apiKeyPepper: e.API_KEY_PEPPER ?? DEV_PEPPER,
    trustProxy: e.TRUST_PROXY,
    defaultGeo: e.DEFAULT_GEO,
    cdnGeo: e.CDN_GEO,
    logLevel: e.LOG_LEVEL,
    sources: e.SOURCES,
    simulatorSeed: e.SIMULATOR_SEED,
    production,
    refreshSeconds: {
      events: e.REFRESH_EVENTS_SECONDS,
      sportsbook: e.REFRESH_SPORTSBOOK_SECONDS,
      metrics: e.REFRESH_METRICS_SECONDS,
      fx: e.REFRESH_FX_SECONDS,
    },
    staleAfterIntervals: e.STALE_AFTER_INTERVALS,
    advertiserOperators: { a: e.ADVERTISER_OPERATOR_A, b: e.ADVERTISER_OPERATOR_B },
    widgetMaxAgeSeconds: e.WIDGET_MAX_AGE_SECONDS,
    ranking: {
      weights: { volume: e.RANK_WEIGHT_VOLUME, oiAccel: e.RANK_WEIGHT_OI_ACCEL, ctr: e.RANK_WEIGHT_CTR },
      oiPeriodMinutes: e.RANK_OI_PERIOD_MINUTES,
      ctrWindowDays: e.RANK_CTR_WINDOW_DAYS,
      ctrPriorImpressions: e.RANK_CTR_PRIOR_IMPRESSIONS,
    },
    upstream: {
      kalshiBaseUrl: e.KALSHI_BASE_URL,
      polymarketGammaUrl: e.POLYMARKET_GAMMA_URL,
      polymarketClobUrl: e.POLYMARKET_CLOB_URL,
      polymarketClobWsUrl: e.POLYMARKET_CLOB_WS_URL,
      kalshiQuotesPollMs: e.KALSHI_QUOTES_POLL_MS,
      polymarketDataUrl: e.POLYMARKET_DATA_URL,
      oddsApiBaseUrl: e.ODDS_API_BASE_URL,
      oddsApiKey: e.ODDS_API_KEY,
      oddsApiRegions: e.ODDS_API_REGIONS,
      oddsApiMinIntervalSeconds: e.ODDS_API_MIN_INTERVAL_SECONDS,
      oddsApiMonthlyCredits: e.ODDS_API_MONTHLY_CREDITS,
      qualityMaxLossShare: e.QUALITY_MAX_LOSS_SHARE,
      ecbFxUrl: e.ECB_FX_URL,
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      eventCatalogFile: e.EVENT_CATALOG_FILE,
    },
    live: {
      refreshSeconds: { 5: e.LIVE_REFRESH_SECONDS_5, 15: e.LIVE_REFRESH_SECONDS_15 },
      staleAfterMs: e.LIVE_STALE_AFTER_SECONDS * 1000,
      pushIntervalMs: e.LIVE_PUSH_INTERVAL_MS,
      strikeMaxLagMs: e.LIVE_STRIKE_MAX_LAG_MS,
    },
    coinbaseWsUrl: e.COINBASE_WS_URL,
    wsMaxBackpressureBytes: e.WS_MAX_BACKPRESSURE_BYTES,
    wsIdleTimeoutSeconds: e.WS_IDLE_TIMEOUT_SECONDS,
    admin: { host: e.ADMIN_HOST, apiPort: e.ADMIN_PORT, workerPort: e.WORKER_HEALTH_PORT, feedPort: e.FEED_HEALTH_PORT },
    limits: {
      click: e.RATE_LIMIT_CLICK,
      wsUpgrade: e.RATE_LIMIT_WS_UPGRADE,
      readyz: e.RATE_LIMIT_READYZ,
      variantBuild: e.RATE_LIMIT_VARIANT_BUILD,
      advertiser: e.RATE_LIMIT_ADVERTISER,
      authFailures: e.AUTH_FAILURE_LIMIT,
      authBlockSeconds: e.AUTH_FAILURE_BLOCK_SECONDS,
      wsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS,
      wsTotal: e.WS_MAX_CONNECTIONS,
      wsMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
    },
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    clickBufferMax: e.CLICK_BUFFER_MAX,
    clickMaxPerVisitorDay: e.CLICK_MAX_PER_VISITOR_DAY,
    advertiserKeyCacheSeconds: e.ADVERTISER_KEY_CACHE_SECONDS,
    advertiserKeyOutageSeconds: e.ADVERTISER_KEY_OUTAGE_SECONDS,
    accessLogSampleRate: e.ACCESS_LOG_SAMPLE_RATE,
    drainSeconds: e.DRAIN_SECONDS ?? (production ? 5 : 0),
    apiWorkers: e.API_WORKERS ?? availableParallelism(),
    hangSeconds: e.HANG_SECONDS,
    demoEnabled: e.DEMO_ENABLED === undefined ? !production : e.DEMO_ENABLED === 'true',
    dataDir: dataDir({ DATA_DIR: e.DATA_DIR }),
  };
}
