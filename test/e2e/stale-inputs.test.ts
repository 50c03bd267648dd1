/**
 * Freshness follows every input, over real processes: when only the FX rates go stale (the worker
 * keeps refreshing everything else but its FX source fails), /readyz names the FX snapshot, a broad
 * widget converted to euros says stale with the rates' fetch time, and one in dollars does not.
 * The processes run on a test clock: the failing FX ages by moving it, not by waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';

const redis = useRedis();
let env: Record<string, string>;
let api: ServiceProcess;
let worker: ServiceProcess | undefined;
const clock = testClock();
// Stale after ten missed one-second refreshes: more than a loaded machine delays a healthy refresh
// (or a worker restart), less than the clock move below (which stays under HANG_SECONDS).
const STALE_AFTER_INTERVALS = 10;
const FX_AGE_MS = 15_000;

interface Ready {
  status: string;
  snapshots: Array<{ kind: string; key: string; loaded: boolean; stale: boolean; failures: number }>;
}
const ready = async () => (await (await fetch(`${api.base}/readyz`)).json()) as Ready;
const broad = async (currency: string) => {
  const res = await fetch(`${api.base}/v1/widgets/broad?currency=${currency}&fallback_geo=JP`);
  expect(res.status).toBe(200);
  return BroadWidgetPayload.parse(await res.json());
};

beforeAll(async () => {
  // FX refreshed every second, like everything else here.
  env = testEnv(redis.url, {
    STALE_AFTER_INTERVALS: String(STALE_AFTER_INTERVALS),
    REFRESH_FX_SECONDS: '1',
    ...clock.env,
  });
  [api, worker] = await Promise.all([spawnProcess('src/main.ts', env), spawnProcess('workers/main.ts', env)]);
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

describe('stale inputs', () => {
  it('a broad payload converted at stale FX rates says stale; readiness names the FX snapshot', async () => {
    // No price feed runs here: the snapshots alone are what this test watches.
    await expect
      .poll(async () => (await ready()).snapshots.every((s) => s.loaded && !s.stale), {
        timeout: 45_000,
        interval: 250,
      })
      .toBe(true);
    expect((await broad('EUR')).stale).toBeUndefined();

    // A worker whose FX source cannot be reached: events, sportsbook and metrics stay fresh.
    await worker!.stop();
    worker = await spawnProcess('workers/main.ts', {
      ...env,
      SOURCES: 'fx=ecb',
      ECB_FX_URL: 'http://127.0.0.1:9/eurofxref-daily.xml',
    });
    const fx = async () => (await ready()).snapshots.find((s) => s.kind === 'fx')!;
    await expect.poll(async () => (await fx()).failures, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);
    clock.advance(FX_AGE_MS);
    await expect.poll(async () => (await fx()).stale, { timeout: 20_000, interval: 100 }).toBe(true);
    // Only FX: the worker refreshes the rest on the moved clock.
    const staleOnes = async () => (await ready()).snapshots.filter((s) => s.stale).map((s) => `${s.kind}/${s.key}`);
    await expect.poll(staleOnes, { timeout: 20_000, interval: 250 }).toEqual(['fx/daily']);
    expect((await fx()).failures).toBeGreaterThan(0);

    await expect.poll(async () => (await broad('EUR')).stale, { timeout: 5_000, interval: 250 }).toBe(true);
    const eur = await broad('EUR');
    expect(Date.parse(eur.data_fetched_at!)).toBeLessThan(clock.now() - STALE_AFTER_INTERVALS * 1_000);
    // In dollars no rate is used: not stale.
    expect((await broad('USD')).stale).toBeUndefined();
  }, 90_000);
});
