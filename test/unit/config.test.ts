import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/config-error.js';

const REDIS = 'redis://127.0.0.1:6399';
const SECRET = 'x'.repeat(32);
const PEPPER = 'y'.repeat(40);

/** Runs loadConfig, expecting a ConfigError, and returns its message. */
function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('fills defaults from a minimal environment', () => {
    const c = loadConfig({ REDIS_URL: REDIS });
    expect(c.port).toBe(8080);
    expect(c.host).toBe('0.0.0.0');
    expect(c.redisUrl).toBe(REDIS);
    expect(c.publicBaseUrl).toBe('http://localhost:8080');
    expect(c.sources).toEqual({
      events: 'simulator',
      sportsbook: 'simulator',
      metrics: 'simulator',
      fx: 'simulator',
      prices: 'simulator',
      quotes: 'simulator',
    });
    expect(c.production).toBe(false);
    expect(c.defaultGeo).toBeUndefined();
    expect(c.trustProxy).toEqual([]);
    expect(c.logLevel).toBe('info');
    expect(c.refreshSeconds).toEqual({ events: 5, sportsbook: 5, metrics: 60, fx: 3600 });
    expect(c.advertiserOperators).toEqual({ a: 'kalshi', b: 'polymarket' });
    expect(c.widgetMaxAgeSeconds).toBe(5);
    // development secrets exist and are long enough to be HMAC keys
    expect(c.clickSigningSecret.length).toBeGreaterThanOrEqual(32);
    expect(c.apiKeyPepper.length).toBeGreaterThanOrEqual(32);
  });

  it('reads explicit values', () => {
    const c = loadConfig({
      REDIS_URL: 'rediss://cache.internal:6380/2',
      PORT: '9090',
      PUBLIC_BASE_URL: 'https://widgets.example.com/',
      DEFAULT_GEO: 'GB',
      TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,',
      REFRESH_METRICS_SECONDS: '120',
      ADVERTISER_OPERATOR_B: 'manifold',
    });
    expect(c.port).toBe(9090);
    expect(c.redisUrl).toBe('rediss://cache.internal:6380/2');
    // the trailing slash is dropped so click URLs are {base}/v1/click
    expect(c.publicBaseUrl).toBe('https://widgets.example.com');
    expect(c.defaultGeo).toBe('GB');
    expect(c.trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16']);
    expect(c.refreshSeconds.metrics).toBe(120);
    expect(c.advertiserOperators).toEqual({ a: 'kalshi', b: 'manifold' });
  });

  it('parses SOURCES per data kind, leaving unnamed kinds on the simulator', () => {
    const c = loadConfig({ REDIS_URL: REDIS, SOURCES: 'events=simulator,sportsbook=foo' });
    expect(c.sources).toEqual({
      events: 'simulator',
      sportsbook: 'foo',
      metrics: 'simulator',
      fx: 'simulator',
      prices: 'simulator',
      quotes: 'simulator',
    });
    const d = loadConfig({ REDIS_URL: REDIS, SOURCES: ' events = kalshi , prices=coinbase ' });
    expect(d.sources).toEqual({
      events: 'kalshi',
      sportsbook: 'simulator',
      metrics: 'simulator',
      fx: 'simulator',
      prices: 'coinbase',
      quotes: 'simulator',
    });
  });

  it('takes venue quotes from the simulator unless SOURCES names them, and a 2 s strike lag by default', () => {
    expect(loadConfig({ REDIS_URL: REDIS, SOURCES: 'quotes=venues' }).sources.quotes).toBe('venues');
    expect(loadConfig({ REDIS_URL: REDIS }).live.strikeMaxLagMs).toBe(2000);
    expect(loadConfig({ REDIS_URL: REDIS, LIVE_STRIKE_MAX_LAG_MS: '500' }).live.strikeMaxLagMs).toBe(500);
    expect(configError({ REDIS_URL: REDIS, LIVE_STRIKE_MAX_LAG_MS: '-1' })).toContain('LIVE_STRIKE_MAX_LAG_MS');
  });

  it('a bare SOURCES name applies to every kind', () => {
    const c = loadConfig({ REDIS_URL: REDIS, SOURCES: 'replay' });
    expect(c.sources).toEqual({
      events: 'replay',
      sportsbook: 'replay',
      metrics: 'replay',
      fx: 'replay',
      prices: 'replay',
      quotes: 'replay',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['PORT', '-1'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(configError({ REDIS_URL: REDIS, [name]: value })).toContain('PORT');
  });

  it.each(['us', 'USA', 'U1', 'G B'])('refuses DEFAULT_GEO=%j naming the variable', (geo) => {
    expect(configError({ REDIS_URL: REDIS, DEFAULT_GEO: geo })).toContain('DEFAULT_GEO');
  });

  it('treats an empty variable as not set (compose writes ${X:-})', () => {
    const c = loadConfig({ REDIS_URL: REDIS, PORT: '', DEFAULT_GEO: '', SOURCES: '', CLICK_SIGNING_SECRET: '' });
    expect(c.port).toBe(8080);
    expect(c.defaultGeo).toBeUndefined();
    expect(c.sources).toEqual({
      events: 'simulator',
      sportsbook: 'simulator',
      metrics: 'simulator',
      fx: 'simulator',
      prices: 'simulator',
      quotes: 'simulator',
    });
    expect(configError({ REDIS_URL: '' })).toContain('REDIS_URL');
    // an empty secret in production is a missing secret
    expect(
      configError({ REDIS_URL: REDIS, NODE_ENV: 'production', CLICK_SIGNING_SECRET: '', API_KEY_PEPPER: PEPPER }),
    ).toContain('CLICK_SIGNING_SECRET');
  });

  it('refuses an unknown data kind in SOURCES, naming the variable and the kind', () => {
    const msg = configError({ REDIS_URL: REDIS, SOURCES: 'events=simulator,weather=noaa' });
    expect(msg).toContain('SOURCES');
    expect(msg).toContain('weather');
  });

  it('refuses a malformed source name in SOURCES', () => {
    expect(configError({ REDIS_URL: REDIS, SOURCES: 'events=Bad Name!' })).toContain('SOURCES');
    expect(configError({ REDIS_URL: REDIS, SOURCES: 'events=' })).toContain('SOURCES');
  });

  it('refuses production without the click secret or the pepper', () => {
    const base = { REDIS_URL: REDIS, NODE_ENV: 'production' };
    expect(configError(base)).toContain('CLICK_SIGNING_SECRET');
    expect(configError({ ...base, CLICK_SIGNING_SECRET: SECRET })).toContain('API_KEY_PEPPER');
    expect(configError({ ...base, API_KEY_PEPPER: PEPPER })).toContain('CLICK_SIGNING_SECRET');
    const secrets = { ...base, CLICK_SIGNING_SECRET: SECRET, API_KEY_PEPPER: PEPPER };
    // click links in production must point at the public host, never at localhost
    expect(configError(secrets)).toContain('PUBLIC_BASE_URL');
    expect(configError(base)).toContain('PUBLIC_BASE_URL');
    const c = loadConfig({ ...secrets, PUBLIC_BASE_URL: 'https://widgets.example.com' });
    expect(c.production).toBe(true);
    expect(c.clickSigningSecret).toBe(SECRET);
    expect(c.apiKeyPepper).toBe(PEPPER);
    // the demo page is off in production unless asked for
    expect(c.demoEnabled).toBe(false);
    expect(
      loadConfig({ ...secrets, PUBLIC_BASE_URL: 'https://widgets.example.com', DEMO_ENABLED: 'true' }).demoEnabled,
    ).toBe(true);
    expect(configError({ ...secrets, DEMO_ENABLED: 'yes' })).toContain('DEMO_ENABLED');
  });

  it('refuses secrets shorter than 32 characters', () => {
    expect(configError({ REDIS_URL: REDIS, CLICK_SIGNING_SECRET: 'short' })).toContain('CLICK_SIGNING_SECRET');
    expect(configError({ REDIS_URL: REDIS, API_KEY_PEPPER: 'z'.repeat(31) })).toContain('API_KEY_PEPPER');
  });

  it('reads Redis Sentinel addresses and master name; REDIS_URL then only carries credentials', () => {
    const c = loadConfig({
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.7:26380,[::1]:26381',
      REDIS_SENTINEL_MASTER: 'pw',
    });
    expect(c.redis.sentinel).toEqual({
      sentinels: [
        { host: 'sentinel-a', port: 26379 },
        { host: '10.0.0.7', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      masterName: 'pw',
      password: undefined,
    });
    const d = loadConfig({
      REDIS_SENTINELS: 's:26379',
      REDIS_URL: 'redis://:secret@ignored:1/3',
      REDIS_SENTINEL_PASSWORD: 'sp',
    });
    expect(d.redis).toEqual({
      url: 'redis://:secret@ignored:1/3',
      sentinel: { sentinels: [{ host: 's', port: 26379 }], masterName: 'mymaster', password: 'sp' },
    });
    expect(loadConfig({ REDIS_URL: REDIS }).redis).toEqual({ url: REDIS });
    expect(configError({ REDIS_SENTINELS: 's:26379,nocolon' })).toContain('REDIS_SENTINELS');
    expect(configError({ REDIS_SENTINELS: 's:99999' })).toContain('REDIS_SENTINELS');
    expect(configError({ REDIS_SENTINELS: ' , ' })).toContain('REDIS_SENTINELS');
  });

  it('requires REDIS_URL, and only redis:// or rediss://', () => {
    expect(configError({})).toContain('REDIS_URL');
    expect(configError({ REDIS_URL: 'http://127.0.0.1:6379' })).toContain('REDIS_URL');
  });

  it('names every bad variable at once', () => {
    const msg = configError({ REDIS_URL: REDIS, PORT: 'x', DEFAULT_GEO: 'x', LOG_LEVEL: 'loud' });
    expect(msg).toContain('PORT');
    expect(msg).toContain('DEFAULT_GEO');
    expect(msg).toContain('LOG_LEVEL');
  });

  it('reads the broad-widget ranking settings, with documented defaults', () => {
    expect(loadConfig({ REDIS_URL: REDIS }).ranking).toEqual({
      weights: { volume: 0.5, oiAccel: 0.2, ctr: 0.3 },
      oiPeriodMinutes: 60,
      ctrWindowDays: 7,
      ctrPriorImpressions: 5000,
    });
    const c = loadConfig({
      REDIS_URL: REDIS,
      RANK_WEIGHT_VOLUME: '1',
      RANK_WEIGHT_OI_ACCEL: '0',
      RANK_WEIGHT_CTR: '2.5',
      RANK_OI_PERIOD_MINUTES: '15',
      RANK_CTR_WINDOW_DAYS: '30',
      RANK_CTR_PRIOR_IMPRESSIONS: '0',
    });
    expect(c.ranking).toEqual({
      weights: { volume: 1, oiAccel: 0, ctr: 2.5 },
      oiPeriodMinutes: 15,
      ctrWindowDays: 30,
      ctrPriorImpressions: 0,
    });
    expect(configError({ REDIS_URL: REDIS, RANK_WEIGHT_CTR: '-1' })).toContain('RANK_WEIGHT_CTR');
    expect(configError({ REDIS_URL: REDIS, RANK_CTR_WINDOW_DAYS: '0' })).toContain('RANK_CTR_WINDOW_DAYS');
  });

  it('refuses a malformed TRUST_PROXY entry, naming the variable', () => {
    expect(configError({ REDIS_URL: REDIS, TRUST_PROXY: '10.0.0.0/8,not-a-range' })).toContain('TRUST_PROXY');
  });
});
