/**
 * Freshness follows every input, over real processes: when only the FX rates go stale (the worker
 * keeps refreshing everything else but its FX source fails), /readyz names the FX snapshot, a broad
 * widget converted to euros says stale with the rates' fetch time, and one in dollars does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let env: Record<string, string>;
let api: ServiceProcess;
let worker: ServiceProcess | undefined;

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
  // FX refreshed every second and stale after three missed refreshes, like everything else here.
  env = testEnv(redis.url, { STALE_AFTER_INTERVALS: '3', REFRESH_FX_SECONDS: '1' });
  [api, worker] = await Promise.all([spawnProcess('src/main.ts', env), spawnProcess('workers/main.ts', env)]);
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

describe('stale inputs', () => {
  it('a broad payload converted at stale FX rates says stale; readiness names the FX snapshot', async () => {
    // No price feed runs here: the snapshots alone are what this test watches.
    await expect.poll(async () => (await ready()).snapshots.every((s) => s.loaded && !s.stale), { timeout: 45_000, interval: 250 }).toBe(true);
    expect((await broad('EUR')).stale).toBeUndefined();

    // A worker whose FX source cannot be reached: events, sportsbook and metrics stay fresh.
    await worker!.stop();
    worker = await spawnProcess('workers/main.ts', { ...env, SOURCES: 'fx=ecb', ECB_FX_URL: 'http://127.0.0.1:9/eurofxref-daily.xml' });
    const fx = async () => (await ready()).snapshots.find((s) => s.kind === 'fx')!;
    await expect.poll(async () => (await fx()).stale, { timeout: 20_000, interval: 250 }).toBe(true);
    // Only FX: the restarted worker refreshes the rest (on a loaded machine it may take a moment).
    const staleOnes = async () => (await ready()).snapshots.filter((s) => s.stale).map((s) => `${s.kind}/${s.key}`);
    await expect.poll(staleOnes, { timeout: 20_000, interval: 250 }).toEqual(['fx/daily']);
    expect((await fx()).failures).toBeGreaterThan(0);

    await expect.poll(async () => (await broad('EUR')).stale, { timeout: 5_000, interval: 250 }).toBe(true);
    const eur = await broad('EUR');
    expect(Date.parse(eur.data_fetched_at!)).toBeLessThan(Date.now() - 3_000);
    // In dollars no rate is used: not stale.
    expect((await broad('USD')).stale).toBeUndefined();
  }, 90_000);
});
