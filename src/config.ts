/**
 * Environment → typed configuration, validated once. A bad value stops start-up with a message that
 * names the variable.
 */
import { z } from 'zod';
import { OperatorId } from './store/schemas.js';

const DATA_KINDS = ['events', 'sportsbook', 'metrics', 'fx', 'prices'] as const;
export type DataKind = (typeof DATA_KINDS)[number];

/**
 * `SOURCES` picks a source per data kind: `simulator` for all, or a comma list such as
 * `events=simulator,sportsbook=simulator`. Unnamed kinds stay on the simulator.
 */
const SourcesSpec = z.string().transform((raw, ctx) => {
  const out: Record<DataKind, string> = { events: 'simulator', sportsbook: 'simulator', metrics: 'simulator', fx: 'simulator', prices: 'simulator' };
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

const Seconds = (def: number) => z.coerce.number().positive().max(86_400).default(def);

/** A list of addresses or CIDR ranges, comma separated; syntax is checked where it is used (geo). */
const AddressList = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** HMAC key for click links; required in production, a fixed dev value otherwise. */
  CLICK_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Key for hashing advertiser API keys at rest. */
  API_KEY_PEPPER: z.string().min(32, 'must be at least 32 characters').optional(),
  TRUST_PROXY: AddressList,
  DEFAULT_GEO: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
    .optional(),
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
  /** Cache-Control max-age for widget responses. */
  WIDGET_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
});

export interface Config {
  port: number;
  host: string;
  redisUrl: string;
  publicBaseUrl: string;
  clickSigningSecret: string;
  apiKeyPepper: string;
  trustProxy: string[];
  defaultGeo: string | undefined;
  logLevel: string;
  sources: Record<DataKind, string>;
  simulatorSeed: number;
  production: boolean;
  refreshSeconds: { events: number; sportsbook: number; metrics: number; fx: number };
  staleAfterIntervals: number;
  advertiserOperators: { a: string; b: string };
  widgetMaxAgeSeconds: number;
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
  if (production && (!e.CLICK_SIGNING_SECRET || !e.API_KEY_PEPPER)) {
    throw new ConfigError('invalid configuration:\n  CLICK_SIGNING_SECRET and API_KEY_PEPPER are required when NODE_ENV=production');
  }
  if (!e.REDIS_URL) throw new ConfigError('invalid configuration:\n  REDIS_URL: required (npm start sets it for you)');
  return {
    port: e.PORT,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    clickSigningSecret: e.CLICK_SIGNING_SECRET ?? DEV_CLICK_SECRET,
    apiKeyPepper: e.API_KEY_PEPPER ?? DEV_PEPPER,
    trustProxy: e.TRUST_PROXY,
    defaultGeo: e.DEFAULT_GEO,
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
  };
}
