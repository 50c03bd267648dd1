/**
 * Environment → typed configuration, validated once. A bad value stops start-up with a message that
 * names the variable.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DATA_KINDS, OperatorId, type DataKind } from './model/index.js';
import { CDN_NAMES } from './geo/cdn-headers.js';
import { invalidRanges } from './geo/cidr.js';
import { parseJurisdiction } from './geo/jurisdiction-code.js';
import { ConfigError } from './runtime/config-error.js';
import { dataDir } from './runtime/redis-url-file.js';
import type { RedisTarget, SentinelAddress } from './store/redis.js';

/**
 * `SOURCES` picks a source per data kind: `simulator` for all, or a comma list such as
 * `events=simulator,sportsbook=simulator`. Unnamed kinds stay on the simulator.
 */
const SourcesSpec = z.string().transform((raw, ctx) => {
  const out: Record<DataKind, string> = {
    events: 'simulator',
    sportsbook: 'simulator',
    metrics: 'simulator',
    fx: 'simulator',
    prices: 'simulator',
    quotes: 'simulator',
  };
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
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
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
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
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

/**
 * Every setting, by environment variable name, each declared once: validation, default and the
 * description docs/settings.md is generated from (`npm run docs:settings`). Tests read its keys
 * and defaults.
 */
export const EnvSchema = z.object({
  // Listening and logging
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080).describe('TCP port of the API (HTTP and WebSocket).'),
  HOST: z.string().min(1).default('0.0.0.0').describe('Address the API binds to.'),
  API_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'API worker processes sharing `PORT`, 1 to 64; 1 runs the API in one process (docs/operations.md, "API workers"). Default: one per core.',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe(
      'pino level; `info` logs a sampled share of requests (`ACCESS_LOG_SAMPLE_RATE`), `debug` one line per request.',
    ),
  ACCESS_LOG_SAMPLE_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.01)
    .describe('Share of requests logged at info level (0 to 1); problems of 500 and up are always logged.'),
  NODE_ENV: z
    .string()
    .default('development')
    .describe(
      '`production` requires `CLICK_SIGNING_SECRET`, `API_KEY_PEPPER` and `PUBLIC_BASE_URL`, and turns `/demo` off.',
    ),
  // Redis
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .optional()
    .describe(
      '`redis://` or `rediss://` URL of the one Redis (`npm start` starts a private one when unset); under Sentinel only its password, db and TLS are used.',
    ),
  REDIS_SENTINELS: z
    .string()
    .optional()
    .transform((raw, ctx) => (raw === undefined ? undefined : parseSentinels(raw, ctx)))
    .describe(
      'Redis Sentinel instead of one server: `host:port` of each sentinel, comma separated (docs/operations.md, "Redis Sentinel with compose").',
    ),
  REDIS_SENTINEL_MASTER: z.string().min(1).default('mymaster').describe('The master name the sentinels monitor.'),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional().describe("The sentinels' own password, when they require one."),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(10_000)
    .default(300)
    .describe('Request-path Redis commands give up after this many milliseconds (there is no offline queue on them).'),
  // Links, secrets, visitors
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Public origin of the API, the base of every click and impression link (required in production). Default: `http://localhost:$PORT`.',
    ),
  CLICK_SIGNING_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'HMAC key of click and impression links, 32+ characters (required in production; a fixed dev value otherwise).',
    ),
  API_KEY_PEPPER: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'Key of the advertiser-key hashes at rest, 32+ characters; changing it invalidates every key (required in production).',
    ),
  TRUST_PROXY: AddressList.superRefine((list, ctx) => {
    const bad = invalidRanges(list);
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${bad.join(', ')}` });
  }).describe('Addresses or CIDR ranges (comma list) whose `X-Forwarded-For` is believed: your load balancer.'),
  DEFAULT_GEO: z
    .string()
    .refine(
      (s) => parseJurisdiction(s) !== undefined,
      'must be an ISO 3166-1 alpha-2 code such as US or an ISO 3166-2 code such as US-NJ',
    )
    .transform((s) => parseJurisdiction(s)!)
    .optional()
    .describe(
      'Jurisdiction (a country such as `GB`, or ISO 3166-2 such as `US-NJ`) of visitors nothing else places; `npm start` sets `US-NJ`. Unset: `ZZ`.',
    ),
  CDN_GEO: z
    .enum(CDN_NAMES)
    .optional()
    .describe(
      'The CDN in front (`cloudflare`, `cloudfront` or `fastly`) whose geo headers are believed from `TRUST_PROXY` peers.',
    ),
  DEMO_ENABLED: z
    .enum(['true', 'false'])
    .optional()
    .describe('Serve the `/demo` page (`true` or `false`). Default: on, except when `NODE_ENV=production`.'),
  DATA_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Local data folder: the launcher's Redis, the API's copy of its last snapshots, counts an API could not write when it stopped. Default: `.data/`.",
    ),
  // Sources and the worker
  SOURCES: SourcesSpec.prefault('simulator').describe(
    'Source per data kind, e.g. `events=kalshi+polymarket,sportsbook=odds-api,prices=coinbase`; unnamed kinds stay on the simulator (docs/sources.md).',
  ),
  SIMULATOR_SEED: z.coerce
    .number()
    .int()
    .default(20261122)
    .describe("The simulator's seed (same seed and clock, same data)."),
  REFRESH_EVENTS_SECONDS: Seconds(5).describe('Refresh interval of events, in seconds.'),
  REFRESH_SPORTSBOOK_SECONDS: Seconds(5).describe('Refresh interval of sportsbook lines, in seconds.'),
  REFRESH_METRICS_SECONDS: Seconds(60).describe('Refresh interval of operator metrics, in seconds.'),
  REFRESH_FX_SECONDS: Seconds(3600).describe('Refresh interval of FX reference rates, in seconds.'),
  STALE_AFTER_INTERVALS: z.coerce
    .number()
    .min(1)
    .max(100)
    .default(6)
    .describe('A snapshot is stale (payloads flagged, `/readyz` degraded) after this many missed refreshes.'),
  KALSHI_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://external-api.kalshi.com/trade-api/v2')
    .describe('Kalshi trade API (market data needs no key).'),
  POLYMARKET_GAMMA_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://gamma-api.polymarket.com')
    .describe('Polymarket Gamma API.'),
  POLYMARKET_CLOB_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://clob.polymarket.com')
    .describe('Polymarket CLOB API (`/price`).'),
  POLYMARKET_DATA_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://data-api.polymarket.com')
    .describe('Polymarket Data API, for open interest (`/oi`).'),
  POLYMARKET_CLOB_WS_URL: z
    .url({ protocol: /^wss?$/ })
    .default('wss://ws-subscriptions-clob.polymarket.com/ws/market')
    .describe("Polymarket's CLOB market channel, for live up/down quotes (`SOURCES` `quotes=venues`)."),
  KALSHI_QUOTES_POLL_MS: z.coerce
    .number()
    .int()
    .min(250)
    .max(60_000)
    .default(2000)
    .describe("How often Kalshi's 15-minute crypto markets are polled for live quotes, in milliseconds."),
  ODDS_API_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.the-odds-api.com')
    .describe('The Odds API.'),
  ODDS_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('The Odds API key, required for `sportsbook=odds-api`; masked in logs.'),
  ODDS_API_REGIONS: z
    .string()
    .regex(/^[a-z]{2}(,[a-z]{2})*$/, 'comma list such as us,eu')
    .default('us')
    .describe('The Odds API `regions` parameter (cost = markets × regions).'),
  ODDS_API_MIN_INTERVAL_SECONDS: z.coerce
    .number()
    .min(0)
    .max(86_400)
    .default(60)
    .describe(
      'Each odds call costs quota: a league is fetched at most once per this many seconds, failed calls included.',
    ),
  ODDS_API_MONTHLY_CREDITS: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'Credits the odds provider may spend per month; calls are paced from `x-requests-remaining` so they last. Unset: no pacing.',
    ),
  QUALITY_MAX_LOSS_SHARE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      "A refresh losing more than this share of the last good snapshot's events, outcomes or operators fails (docs/sources.md).",
    ),
  ECB_FX_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml')
    .describe('ECB daily FX reference file.'),
  COINBASE_WS_URL: z
    .url({ protocol: /^wss?$/ })
    .default('wss://ws-feed.exchange.coinbase.com')
    .describe('Exchange feed when `SOURCES` has `prices=coinbase`.'),
  UPSTREAM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe('Timeout of each upstream request, in milliseconds.'),
  EVENT_CATALOG_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('A JSON event catalog replacing the built-in one (validated at start-up).'),
  COMPLIANCE_REVIEW_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe(
      'Days after its `reviewed_on` date a compliance rule row is overdue for review (start-up warning, `predictwire_compliance_reviews_overdue`, `npm run compliance -- audit`).',
    ),
  // Widgets and ranking
  ADVERTISER_OPERATOR_A: OperatorId.default('kalshi').describe(
    'Operator A (the regulated exchange) of the advertiser comparison.',
  ),
  ADVERTISER_OPERATOR_B: OperatorId.default('polymarket').describe(
    'Operator B (the crypto-based market) of the advertiser comparison.',
  ),
  WIDGET_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(5)
    .describe(
      "`Cache-Control: max-age` (the browser's) of widget responses, at most the kind's refresh interval (the live market always 1 s).",
    ),
  RANK_WEIGHT_VOLUME: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(0.5)
    .describe('Broad ranking: weight of the normalized 24 h volume.'),
  RANK_WEIGHT_OI_ACCEL: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(0.2)
    .describe('Broad ranking: weight of the normalized open-interest acceleration.'),
  RANK_WEIGHT_CTR: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(0.3)
    .describe('Broad ranking: weight of the normalized smoothed click-through rate.'),
  RANK_OI_PERIOD_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1440)
    .default(60)
    .describe('Period P of the open-interest acceleration, in minutes.'),
  RANK_CTR_WINDOW_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(7)
    .describe('Click-through rate window, in UTC days.'),
  RANK_CTR_PRIOR_IMPRESSIONS: z.coerce
    .number()
    .min(0)
    .max(10_000_000)
    .default(5000)
    .describe('Prior weight m of the smoothed click-through rate, in impressions.'),
  // Live market and WebSocket
  LIVE_REFRESH_SECONDS_5: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(2)
    .describe('`refresh_interval_seconds` told to 5-minute live-market widgets.'),
  LIVE_REFRESH_SECONDS_15: z.coerce
    .number()
    .int()
    .min(1)
    .max(900)
    .default(5)
    .describe('`refresh_interval_seconds` told to 15-minute live-market widgets.'),
  LIVE_STALE_AFTER_SECONDS: z.coerce
    .number()
    .positive()
    .max(3600)
    .default(15)
    .describe('No tick for this many seconds: the live market is `stale` and shows no prices.'),
  LIVE_PUSH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(10_000)
    .default(100)
    .describe('At most one live price push per topic per this many milliseconds.'),
  LIVE_STRIKE_MAX_LAG_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(2000)
    .describe(
      "Only a tick stamped within this many ms of a window's start may become its strike; otherwise the window is `no_strike`.",
    ),
  WS_MAX_BACKPRESSURE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(256 * 1024)
    .describe('Bytes a WebSocket client may fall behind by before it is dropped.'),
  WS_IDLE_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(8)
    .max(960)
    .default(32)
    .describe('Seconds of silence before a WebSocket ping; a client that does not answer is closed.'),
  // Admin listeners, never public
  ADMIN_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe("Address of every process's admin listener (`/metrics`, `/healthz`); loopback keeps it private."),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65_535).default(9464).describe('Admin port of the API (0: none).'),
  WORKER_HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(9465)
    .describe('Admin port of the worker (0: none).'),
  FEED_HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(9466)
    .describe('Admin port of the price feed (0: none).'),
  // Limits (docs/operations.md, "Limits"): rates are points/seconds
  RATE_LIMIT_CLICK: RateSpec('60/60').describe(
    '`/v1/click` per address; over it a click is still redirected, just not counted.',
  ),
  RATE_LIMIT_WS_UPGRADE: RateSpec('30/60').describe('WebSocket upgrades per address.'),
  RATE_LIMIT_READYZ: RateSpec('300/60').describe(
    "`/readyz` per address, counted in each instance's memory; `TRUST_PROXY` addresses are not limited.",
  ),
  RATE_LIMIT_VARIANT_BUILD: RateSpec('120/60').describe(
    'Public widget requests that build a variant never built before, per address (cached reads are free).',
  ),
  RATE_LIMIT_ADVERTISER: RateSpec('1200/60').describe('`/advertiser/*` requests per authenticated advertiser.'),
  AUTH_FAILURE_LIMIT: RateSpec('10/60').describe(
    'Failed authentications per address; over it the address is blocked (429).',
  ),
  AUTH_FAILURE_BLOCK_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(900)
    .describe('How long an address over `AUTH_FAILURE_LIMIT` is blocked, in seconds.'),
  WS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(20)
    .describe('Open WebSocket connections per address, IPv6 per /64 (429 beyond).'),
  WS_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(0)
    .describe('Open WebSocket connections in all, per API worker process (503 beyond); 0: half the open-file limit.'),
  WS_MAX_MESSAGES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('Messages a WebSocket client may send per second; more closes the connection (1008).'),
  CLICK_BUFFER_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(100_000)
    .describe('Clicks held in memory while Redis is away; beyond this they are dropped and counted.'),
  CLICK_MAX_PER_VISITOR_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe("Distinct operators one visitor's clicks count for per UTC day (per API worker process)."),
  CLICK_ATTRIBUTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(30)
    .describe(
      "Days a click's id resolves after the click: postbacks quoting it later are answered 410 `click_expired` (docs/postbacks.md).",
    ),
  ADVERTISER_KEY_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(60)
    .describe('Seconds a successful advertiser key check is reused (revocation still applies within a second).'),
  ADVERTISER_KEY_OUTAGE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(900)
    .describe('While Redis is unreachable, a key that verified within this many seconds keeps working (0: none).'),
  DRAIN_SECONDS: z.coerce
    .number()
    .min(0)
    .max(600)
    .optional()
    .describe(
      'Seconds `/readyz` reports draining after SIGTERM, still serving, before the listener closes. Default: 5 in production, else 0.',
    ),
  HANG_SECONDS: z.coerce
    .number()
    .int()
    .min(2)
    .max(3600)
    .default(20)
    .describe(
      'A process whose event loop is stuck this long kills itself, and an API worker silent this long is killed by its primary; their supervisor restarts them.',
    ),
});

/** At most `points` requests per `seconds`. */
export type RateLimit = z.output<ReturnType<typeof RateSpec>>;

// Development-only fallbacks; production refuses to start without real values.
const DEV_CLICK_SECRET = 'predictwire-dev-click-secret-not-for-production';
const DEV_PEPPER = 'predictwire-dev-api-key-pepper-not-for-production';
const PRODUCTION_REQUIRED = ['CLICK_SIGNING_SECRET', 'API_KEY_PEPPER', 'PUBLIC_BASE_URL'] as const;

/** The environment, validated, shaped as the processes use it (`Config` is its output type). */
const ConfigSchema = EnvSchema.transform((e, ctx) => {
  const production = e.NODE_ENV === 'production';
  // Production needs real secrets, and click links that point at the public host, not localhost.
  for (const key of production ? PRODUCTION_REQUIRED.filter((k) => !e[k]) : []) {
    ctx.addIssue({ code: 'custom', path: [key], message: 'required when NODE_ENV=production' });
  }
  if (!e.REDIS_URL && !e.REDIS_SENTINELS) {
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_URL'],
      message: 'required (npm start sets it for you), or REDIS_SENTINELS',
    });
  }
  // Under Sentinel a bare URL stands for "no password, db 0": ioredis takes host and port from Sentinel.
  const redisUrl = e.REDIS_URL ?? 'redis://localhost';
  const redis: RedisTarget = {
    url: redisUrl,
    ...(e.REDIS_SENTINELS && {
      sentinel: {
        sentinels: e.REDIS_SENTINELS,
        masterName: e.REDIS_SENTINEL_MASTER,
        password: e.REDIS_SENTINEL_PASSWORD,
      },
    }),
  };
  return {
    port: e.PORT,
    host: e.HOST,
    /** REDIS_URL as given (under Sentinel: credentials only); connect through `redis`, which knows Sentinel. */
    redisUrl,
    redis,
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
    /** Admin listeners (metrics and health) per process; port 0 means none. */
    admin: {
      host: e.ADMIN_HOST,
      apiPort: e.ADMIN_PORT,
      workerPort: e.WORKER_HEALTH_PORT,
      feedPort: e.FEED_HEALTH_PORT,
    },
    limits: {
      click: e.RATE_LIMIT_CLICK,
      wsUpgrade: e.RATE_LIMIT_WS_UPGRADE,
      readyz: e.RATE_LIMIT_READYZ,
      variantBuild: e.RATE_LIMIT_VARIANT_BUILD,
      advertiser: e.RATE_LIMIT_ADVERTISER,
      authFailures: e.AUTH_FAILURE_LIMIT,
      authBlockSeconds: e.AUTH_FAILURE_BLOCK_SECONDS,
      wsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS,
      /** 0: derived from the file-descriptor limit at start. */
      wsTotal: e.WS_MAX_CONNECTIONS,
      wsMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
    },
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    clickBufferMax: e.CLICK_BUFFER_MAX,
    clickMaxPerVisitorDay: e.CLICK_MAX_PER_VISITOR_DAY,
    clickAttributionMs: e.CLICK_ATTRIBUTION_DAYS * 86_400_000,
    advertiserKeyCacheSeconds: e.ADVERTISER_KEY_CACHE_SECONDS,
    advertiserKeyOutageSeconds: e.ADVERTISER_KEY_OUTAGE_SECONDS,
    accessLogSampleRate: e.ACCESS_LOG_SAMPLE_RATE,
    drainSeconds: e.DRAIN_SECONDS ?? (production ? 5 : 0),
    /** API worker processes on the one port; 1 runs the API in this process, without a primary. */
    apiWorkers: e.API_WORKERS ?? availableParallelism(),
    hangSeconds: e.HANG_SECONDS,
    demoEnabled: e.DEMO_ENABLED === undefined ? !production : e.DEMO_ENABLED === 'true',
    /** Days after a compliance row's review it is overdue. */
    complianceReviewDays: e.COMPLIANCE_REVIEW_DAYS,
    /** Local data folder (absolute). */
    dataDir: dataDir({ DATA_DIR: e.DATA_DIR }),
  };
});

/** The validated configuration every process receives. */
export type Config = z.output<typeof ConfigSchema>;

/**
 * Reads configuration from an environment object.
 * @throws ConfigError naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as compose writes `${X:-}`) means "not set".
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
