/**
 * The price-feed process: one PriceSource (simulator or an exchange), every tick published on
 * `pw:ticks:{ASSET}` in the wire format of docs/design.md.
 */
import type { Config } from '../../src/config.js';
import { ConfigError } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import { ticksChannel } from '../../src/store/keys.js';
import { connectRedis } from '../../src/store/redis.js';
import { createCoinbasePrices } from './coinbase.js';
import type { PriceSource } from './price-source.js';
import { createSimulatedPrices } from './simulated-prices.js';

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
  const redis = connectRedis(config.redis, 'feed', log);
  let published = 0;
  await source.start((tick) => {
    published++;
    redis.publish(ticksChannel(tick.asset), JSON.stringify(tick)).catch(() => {
      // Ticks are ephemeral: a lost one is superseded within a second; the connection logs once.
    });
  });
  log.info({ source: source.name }, 'price feed started');
  const stats = setInterval(() => log.debug({ published }, 'ticks published'), 60_000);
  stats.unref();
  return {
    async stop() {
      clearInterval(stats);
      await source.stop();
      await redis.quit().catch(() => {});
    },
  };
}
