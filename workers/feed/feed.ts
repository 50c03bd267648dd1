/**
 * The price-feed process: one PriceSource (simulator or an exchange), every tick published on
 * `pw:ticks:{ASSET}` in the wire format of DESIGN.md.
 */
import type { Config } from '../../src/config.js';
import { ConfigError } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import { ticksChannel } from '../../src/store/keys.js';
import { connectRedis } from '../../src/store/redis.js';
import { createCoinbasePrices } from './coinbase.js';
import type { PriceSource } from './price-source.js';
import { createSimulatedPrices } from './simulated-prices.js';
import { startAdminServer } from '../../src/metrics/admin-server.js';
import { Counter } from 'prom-client';

const ticksPublished = new Counter({ name: 'predictwire_feed_ticks_published_total', help: 'Price ticks the feed published', labelNames: ['asset'] });

function priceSource(config: Config, log: Logger): PriceSource {
  switch (config.sources.prices) {
    case 'simulator':
      return createSimulatedPrices({ seed: config.simulatorSeed });
    case 'coinbase':
      return createCoinbasePrices({ url: config.coinbaseWsUrl, log });
    default:
      throw new ConfigError(`invalid configuration:\n  SOURCES: no prices source "${config.sources.prices}" (available: simulator, coinbase)`);
  }
}

export async function startFeed(config: Config, log: Logger): Promise<{ stop(): Promise<void> }> {
  const source = priceSource(config, log);
  const redis = connectRedis(config.redisUrl, 'feed', log);
  let published = 0;
  await source.start((tick) => {
    published++;
    ticksPublished.inc({ asset: tick.asset });
    redis.publish(ticksChannel(tick.asset), JSON.stringify(tick)).catch(() => {
      // Ticks are ephemeral: a lost one is superseded within a second; the connection logs once.
    });
  });
  log.info({ source: source.name }, 'price feed started');
  const admin = await startAdminServer(config.admin.host, config.admin.feedPort, log);
  const stats = setInterval(() => log.debug({ published }, 'ticks published'), 60_000);
  stats.unref();
  return {
    async stop() {
      clearInterval(stats);
      await admin?.close();
      await source.stop();
      await redis.quit().catch(() => {});
    },
  };
}
