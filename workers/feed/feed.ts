/**
 * The price-feed process: one PriceSource (simulator or an exchange), every tick published on
 * `pw:ticks:{ASSET}` in the wire format of docs/design.md; with `quotes=venues`, also the venues' own
 * up/down quotes (one connection per venue) on `pw:quotes:{ASSET}`.
 */
import type { Config } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/config-error.js';
import type { Logger } from '../../src/runtime/log.js';
import { ticksChannel } from '../../src/store/keys.js';
import { VolatilityStamp } from '../../src/live/volatility.js';
import { closeRedis, connectRedis } from '../../src/store/redis.js';
import { KalshiClient } from '../../src/sources/kalshi/client.js';
import { createKalshiCrypto15m } from '../../src/sources/kalshi/crypto-15m.js';
import { PolymarketClient } from '../../src/sources/polymarket/client.js';
import { createPolymarketUpDown } from '../../src/sources/polymarket/updown-source.js';
import type { QuoteSource } from '../../src/sources/quotes/quote-source.js';
import { createCoinbasePrices } from '../../src/sources/coinbase/ticker.js';
import type { PriceSource } from '../../src/sources/prices/price-source.js';
import { createQuotePublisher } from './quote-publisher.js';
import { createSimulatedPrices } from '../../src/sources/simulator/prices.js';
import { startAdminServer } from '../../src/metrics/admin-server.js';
import { Counter } from 'prom-client';
import { type Clock, systemClock, systemTimers, type Timers } from '../../src/model/clock.js';
import { Lifecycle } from '../../src/runtime/lifecycle.js';

const ticksPublished = new Counter({
  name: 'predictwire_feed_ticks_published_total',
  help: 'Price ticks the feed published',
  labelNames: ['asset'],
});

function priceSource(config: Config, log: Logger): PriceSource {
  switch (config.sources.prices) {
    case 'simulator':
      return createSimulatedPrices({ seed: config.simulatorSeed });
    case 'coinbase':
      return createCoinbasePrices({ url: config.coinbaseWsUrl, log });
    default:
      throw new ConfigError(
        `invalid configuration:\n  SOURCES: no prices source "${config.sources.prices}" (available: simulator, coinbase)`,
      );
  }
}

/** The venue quote sources: none on the simulator (the API processes model the venues themselves). */
function quoteSources(config: Config, log: Logger, now: Clock, timers: Timers): QuoteSource[] {
  const up = config.upstream;
  switch (config.sources.quotes) {
    case 'simulator':
      return [];
    case 'venues':
      return [
        createPolymarketUpDown({
          client: new PolymarketClient({
            gammaUrl: up.polymarketGammaUrl,
            clobUrl: up.polymarketClobUrl,
            timeoutMs: up.timeoutMs,
            log,
          }),
          wsUrl: up.polymarketClobWsUrl,
          log,
          now,
          timers,
        }),
        createKalshiCrypto15m({
          client: new KalshiClient({ baseUrl: up.kalshiBaseUrl, timeoutMs: up.timeoutMs, log }),
          pollMs: up.kalshiQuotesPollMs,
          log,
          now,
          timers,
        }),
      ];
    default:
      throw new ConfigError(
        `invalid configuration:\n  SOURCES: no quotes source "${config.sources.quotes}" (available: simulator, venues)`,
      );
  }
}

export interface FeedOptions {
  /** The clock the venue sources pick windows by (tests move it across a window boundary). */
  now?: Clock;
  /** The venue sources' timers, on that clock (test/support/manual-clock.ts). */
  timers?: Timers;
}

export async function startFeed(
  config: Config,
  log: Logger,
  opts: FeedOptions = {},
): Promise<{ stop(): Promise<void> }> {
  const source = priceSource(config, log);
  const now = opts.now ?? systemClock;
  const timers = opts.timers ?? systemTimers;
  const venues = quoteSources(config, log, now, timers);
  // Each part stops where it starts, in reverse order: the publishers before the connection they use.
  const life = new Lifecycle();
  const redis = await life.start(
    () => connectRedis(config.redis, 'feed', log),
    (connection) => closeRedis(connection),
  );
  const quotes = await life.start(
    () => createQuotePublisher(redis, { log, now, timers }),
    (publisher) => publisher.stop(),
  );
  // Measured here, once, and sent with every tick: API processes started at different times then
  // still price with the same volatility.
  const volatility = new VolatilityStamp();
  let published = 0;
  await life.start(
    () =>
      source.start((tick) => {
        published++;
        ticksPublished.inc({ asset: tick.asset });
        redis.publish(ticksChannel(tick.asset), JSON.stringify(volatility.stamp(tick))).catch(() => {
          // Ticks are ephemeral: a lost one is superseded within a second; the connection logs once.
        });
      }),
    () => source.stop(),
  );
  log.info({ source: source.name }, 'price feed started');
  for (const venue of venues)
    await life.start(
      () => venue.start(quotes),
      () => venue.stop(),
    );
  if (venues.length > 0) log.info({ sources: venues.map((v) => v.name) }, 'venue quote sources started');
  await life.start(
    () => startAdminServer(config.admin.host, config.admin.feedPort, log),
    (admin) => admin?.close(),
  );
  const stats = setInterval(
    () => log.debug({ published, quotes: quotes.published }, 'ticks and quotes published'),
    60_000,
  );
  stats.unref();
  life.onStop(() => clearInterval(stats));
  return { stop: () => life.stop() };
}
