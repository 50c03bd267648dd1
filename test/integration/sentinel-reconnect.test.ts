/**
 * connectRedis through real sentinels when a primary dies: a client (commands, and a subscriber
 * with its subscription) reaches the new primary even when the failover notice reaches it while it
 * is still waiting on a sentinel's answer (ioredis ends such a client for good), and even when the
 * sentinel it asks first answers nothing at all.
 */
import { pino } from 'pino';
import { describe, type ExpectStatic, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { closeRedis, connectRedis, whenReady } from '../../src/store/redis.js';
import { MASTER_NAME, startSentinelCluster, type SentinelCluster } from '../support/sentinel.js';
import { testEnv } from '../support/service.js';

const log = pino({ level: 'silent' });

/**
 * Runs `drill` on a cluster of its own (the two drills below wait side by side; `expect` is the
 * test's own, as concurrent tests need) with a command connection and a subscriber on
 * `pw:test:notices` made with `extra`, both ready; stops everything after, frozen sentinels thawed.
 */
async function onCluster(
  expect: ExpectStatic,
  extra: Parameters<typeof connectRedis>[3],
  drill: (cluster: SentinelCluster, freeze: (i: number) => () => void) => Promise<void>,
) {
  const cluster = await startSentinelCluster();
  const target = loadConfig(
    testEnv('', { REDIS_SENTINELS: cluster.sentinelList, REDIS_SENTINEL_MASTER: MASTER_NAME }),
  ).redis;
  const commands = connectRedis(target, 'test-commands', log, extra);
  const subscriber = connectRedis(target, 'test-subscriber', log, extra);
  const thaws: Array<() => void> = [];
  try {
    await Promise.all([whenReady(commands), whenReady(subscriber)]);
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe('pw:test:notices');
    await drill(cluster, (i) => {
      const thaw = cluster.freezeSentinel(i);
      thaws.push(thaw);
      return thaw;
    });
    // Both connections answer on the new primary (commands sent before may fail), and the
    // subscription hears a publish there.
    const port = () =>
      commands.info('server').then(
        (info) => Number(/tcp_port:(\d+)/.exec(info)?.[1]),
        () => undefined,
      );
    await expect.poll(port, { timeout: 20_000, interval: 100 }).toBe(cluster.replicaPort);
    await expect
      .poll(
        async () => {
          await commands.publish('pw:test:notices', 'after the failover');
          return heard;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toContain('after the failover');
  } finally {
    for (const thaw of thaws) thaw();
    await closeRedis(commands, subscriber);
    await cluster.stop();
  }
}

describe.concurrent('connectRedis under Sentinel, the primary killed', () => {
  it('reaches the new primary when the failover notice arrives while a sentinel has not answered yet', async ({
    expect,
  }) => {
    // A sentinel slow to answer (here: stopped, and no timeout on the question), so the notice from
    // the other two lands while the reconnect still waits on it: the interleaving in which
    // ioredis's reconnect throws "Connection is closed." and gives up.
    await onCluster(expect, { sentinelCommandTimeout: 60_000 }, async (cluster, freeze) => {
      const thaw = freeze(0);
      cluster.killPrimary();
      await expect
        .poll(() => cluster.currentPrimaryPort(), { timeout: 30_000, interval: 200 })
        .toBe(cluster.replicaPort);
      thaw();
    });
  }, 90_000);

  it('reaches the new primary when the sentinel it asks first answers nothing', async ({ expect }) => {
    await onCluster(expect, {}, async (cluster, freeze) => {
      freeze(0); // stopped until the end
      cluster.killPrimary();
    });
  }, 90_000);
});
