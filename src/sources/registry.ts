/**
 * Picks the configured source for each data kind (`SOURCES`). Names:
 * - events: simulator | kalshi | polymarket | kalshi+polymarket (catalog-driven)
 * - sportsbook: simulator | odds-api | odds-api+kalshi (Kalshi game contracts beside the books)
 * - metrics: simulator | derived (from the real events and sportsbook sources' last fetches)
 * - fx: simulator | ecb
 * Only the chosen sources are built, so an unused upstream needs no credentials.
 */
import type { Config } from '../config.js';
import { ConfigError } from '../runtime/config-error.js';
import { CatalogError, loadEventCatalog } from '../catalog/events/load.js';
import { createLogger, type Logger } from '../runtime/log.js';
import { createCatalogEventsSource, type CatalogEventsSource } from './combined/catalog-events.js';
import { createDerivedMetricsSource } from './combined/derived-metrics.js';
import type { LeagueMemory } from './combined/league-memory.js';
import type { QuotaStore } from './http/quota-store.js';
import { createOddsSportsbookSource, type OddsSportsbookSource } from './combined/odds-sportsbook.js';
import { createEcbSource } from './ecb/source.js';
import { KalshiClient } from './kalshi/client.js';
import { OddsApiClient } from './odds-api/client.js';
import { PolymarketClient } from './polymarket/client.js';
import { createSimulator } from './simulator/index.js';
import type { EventsSource, FxSource, MetricsSource, SportsbookSource } from './source.js';

export interface Sources {
  events: EventsSource;
  sportsbook: SportsbookSource;
  metrics: MetricsSource;
  fx: FxSource;
}

const bad = (msg: string) => new ConfigError(`invalid configuration:\n  ${msg}`);

/** `b+a` and `a+b` name the same combination. */
const canonical = (name: string) => name.split('+').sort().join('+');

/** @throws ConfigError for a source name this build does not have, a missing key, or a bad event catalog. */
export interface SourceOptions {
  log?: Logger;
  /** Where sources keep what must survive a restart (the worker passes a Redis-backed one). */
  leagueMemory?: LeagueMemory;
  /** Where the odds provider's quota and call times are kept (Redis in the worker). */
  oddsQuotaStore?: QuotaStore;
}

export function createSources(config: Config, opts: SourceOptions = {}): Sources {
  const log = opts.log ?? createLogger(config.logLevel, 'sources');
  const simulator = createSimulator({ seed: config.simulatorSeed });
  const up = config.upstream;
  let kalshi: KalshiClient | undefined;
  const kalshiClient = () => (kalshi ??= new KalshiClient({ baseUrl: up.kalshiBaseUrl, timeoutMs: up.timeoutMs, log }));
  const pick = <T>(kind: string, name: string, available: Record<string, () => T>): T => {
    const make = available[canonical(name)];
    if (!make) throw bad(`SOURCES: no ${kind} source "${name}" (available: ${Object.keys(available).join(', ')})`);
    return make();
  };

  const catalogEvents = (venues: { kalshi: boolean; polymarket: boolean }): CatalogEventsSource => {
    let catalog: ReturnType<typeof loadEventCatalog>;
    try {
      catalog = loadEventCatalog(up.eventCatalogFile);
    } catch (err) {
      if (err instanceof CatalogError) throw new ConfigError(err.message);
      throw err;
    }
    return createCatalogEventsSource({
      catalog,
      log,
      ...(venues.kalshi ? { kalshi: kalshiClient() } : {}),
      ...(venues.polymarket
        ? {
            polymarket: new PolymarketClient({
              gammaUrl: up.polymarketGammaUrl,
              clobUrl: up.polymarketClobUrl,
              dataUrl: up.polymarketDataUrl,
              timeoutMs: up.timeoutMs,
              log,
            }),
          }
        : {}),
    });
  };
  const oddsSportsbook = (withKalshi: boolean): OddsSportsbookSource => {
    if (!up.oddsApiKey) throw bad('ODDS_API_KEY: required when SOURCES picks sportsbook=odds-api');
    const odds = new OddsApiClient({
      baseUrl: up.oddsApiBaseUrl,
      apiKey: up.oddsApiKey,
      regions: up.oddsApiRegions,
      timeoutMs: up.timeoutMs,
      log,
    });
    return createOddsSportsbookSource({
      odds,
      log,
      minIntervalMs: up.oddsApiMinIntervalSeconds * 1000,
      ...(up.oddsApiMonthlyCredits !== undefined ? { monthlyCredits: up.oddsApiMonthlyCredits } : {}),
      ...(opts.leagueMemory ? { memory: opts.leagueMemory } : {}),
      ...(opts.oddsQuotaStore ? { quotaStore: opts.oddsQuotaStore } : {}),
      ...(withKalshi ? { kalshi: kalshiClient() } : {}),
    });
  };

  const events = pick<EventsSource>('events', config.sources.events, {
    simulator: () => simulator,
    kalshi: () => catalogEvents({ kalshi: true, polymarket: false }),
    polymarket: () => catalogEvents({ kalshi: false, polymarket: true }),
    'kalshi+polymarket': () => catalogEvents({ kalshi: true, polymarket: true }),
  });
  const sportsbook = pick<SportsbookSource>('sportsbook', config.sources.sportsbook, {
    simulator: () => simulator,
    'odds-api': () => oddsSportsbook(false),
    'kalshi+odds-api': () => oddsSportsbook(true),
  });
  const metrics = pick<MetricsSource>('metrics', config.sources.metrics, {
    simulator: () => simulator,
    derived: () => {
      if (!('last' in events))
        throw bad('SOURCES: metrics=derived needs a real events source (kalshi, polymarket or kalshi+polymarket)');
      const ev = events as CatalogEventsSource;
      return createDerivedMetricsSource({
        events: async (ctx) => {
          // Before the first events refresh has run, fetch once here; afterwards reuse its result.
          if (!ev.last()) ev.accept(await ev.fetchEvents(ctx));
          return ev.last()!;
        },
        leagues: () => ('lastLeagues' in sportsbook ? (sportsbook as OddsSportsbookSource).lastLeagues() : []),
      });
    },
  });
  const fx = pick<FxSource>('fx', config.sources.fx, {
    simulator: () => simulator,
    ecb: () => createEcbSource({ url: up.ecbFxUrl, timeoutMs: up.timeoutMs, log }),
  });
  return { events, sportsbook, metrics, fx };
}
