/** The live part of an API process: the live-market engine on connections of its own. */
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { Logger } from '../runtime/log.js';
import type { ApiRedis } from '../store/api-redis.js';
import { closeRedis, connectRedis, type RedisTarget } from '../store/redis.js';
import { LiveEngine } from './engine.js';

/** Makes the engine (its `start` subscribes); it stops before its connections quit. */
export async function openLiveEngine(
  life: Lifecycle,
  config: { redis: RedisTarget; live: { strikeMaxLagMs: number } },
  log: Logger,
  redis: ApiRedis,
): Promise<LiveEngine> {
  const { ticks, quotes } = await life.start(
    () => ({
      // Ticks get a connection of their own so a burst of them never queues behind snapshot notices;
      // venue quotes likewise, so they never queue behind ticks nor ticks behind them.
      ticks: connectRedis(config.redis, 'api-ticks', log),
      quotes: connectRedis(config.redis, 'api-quotes', log),
    }),
    (c) => closeRedis(c.ticks, c.quotes),
  );
  const engine = new LiveEngine({
    redis: redis.redis,
    subscriber: ticks,
    quoteSubscriber: quotes,
    log,
    strikeMaxLagMs: config.live.strikeMaxLagMs,
  });
  life.onStop(() => engine.stop());
  return engine;
}
