/** SOURCES picks a source per data kind; real ones need their credentials; the simulator is the default. */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/config-error.js';
import { createSources } from '../../src/sources/registry.js';

const log = pino({ level: 'silent' });
const sources = (env: Record<string, string>) =>
  createSources(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399', ...env }), { log });

describe('createSources', () => {
  it('defaults to the simulator everywhere, with no credentials', () => {
    const s = sources({});
    expect([s.events.name, s.sportsbook.name, s.metrics.name, s.fx.name]).toEqual([
      'simulator',
      'simulator',
      'simulator',
      'simulator',
    ]);
  });

  it('builds the real sources SOURCES names, in either order of a combination', () => {
    const s = sources({
      SOURCES: 'events=polymarket+kalshi,sportsbook=kalshi+odds-api,metrics=derived,fx=ecb',
      ODDS_API_KEY: 'k',
    });
    expect([s.events.name, s.sportsbook.name, s.metrics.name, s.fx.name]).toEqual([
      'kalshi+polymarket',
      'odds-api+kalshi',
      'derived',
      'ecb',
    ]);
    expect(sources({ SOURCES: 'events=kalshi' }).events.name).toBe('kalshi');
  });

  it('refuses an unknown source, a missing key, and derived metrics without a real events source', () => {
    expect(() => sources({ SOURCES: 'events=manifold' })).toThrow(/no events source "manifold"/);
    expect(() => sources({ SOURCES: 'sportsbook=odds-api' })).toThrow(ConfigError);
    expect(() => sources({ SOURCES: 'sportsbook=odds-api' })).toThrow(/ODDS_API_KEY/);
    expect(() => sources({ SOURCES: 'metrics=derived' })).toThrow(/metrics=derived needs a real events source/);
  });

  it('validates the upstream variables', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399', KALSHI_BASE_URL: 'ftp://x' })).toThrow(
      /KALSHI_BASE_URL/,
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399', ODDS_API_REGIONS: 'US' })).toThrow(
      /ODDS_API_REGIONS/,
    );
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399' });
    expect(c.upstream).toMatchObject({
      kalshiBaseUrl: 'https://external-api.kalshi.com/trade-api/v2',
      polymarketGammaUrl: 'https://gamma-api.polymarket.com',
      polymarketClobUrl: 'https://clob.polymarket.com',
      oddsApiBaseUrl: 'https://api.the-odds-api.com',
      ecbFxUrl: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
      oddsApiKey: undefined,
    });
  });

  it('a bad EVENT_CATALOG_FILE stops start-up', () => {
    expect(() => sources({ SOURCES: 'events=kalshi', EVENT_CATALOG_FILE: '/nonexistent/catalog.json' })).toThrow(
      /cannot read event catalog/,
    );
  });
});
