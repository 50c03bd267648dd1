/**
 * While Redis is away the worker keeps to its JSON log: BullMQ's errors go through listeners, not
 * as multi-line stack traces on stderr.
 */
import { afterAll, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../../src/runtime/private-redis.js';
import { spawnProcess, testEnv, type ServiceProcess } from '../support/service.js';

let redis: PrivateRedis | undefined;
let worker: ServiceProcess | undefined;

afterAll(async () => {
  await worker?.stop();
  await redis?.stop();
});

it('logs only JSON lines while Redis is down', async () => {
  redis = await startPrivateRedis();
  worker = await spawnProcess('workers/main.ts', testEnv(redis.url, { LOG_LEVEL: 'info' }));
  await expect.poll(() => worker!.output(), { timeout: 30_000, interval: 200 }).toContain('"msg":"worker started"');
  await redis.stop();
  // Both BullMQ objects have reported the outage (each is logged once, then throttled).
  await expect
    .poll(() => /"msg":"queue error"/.test(worker!.output()) && /"msg":"worker error"/.test(worker!.output()), {
      timeout: 30_000,
      interval: 200,
    })
    .toBe(true);
  await worker.stop();
  const lines = worker
    .output()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const notJson = lines.filter((l) => {
    try {
      return typeof JSON.parse(l) !== 'object';
    } catch {
      return true;
    }
  });
  expect(notJson).toEqual([]);
  // Throttled: one line per kind of error, not one per retry.
  expect(lines.filter((l) => l.includes('"msg":"worker error"')).length).toBeLessThanOrEqual(2);
}, 90_000);
