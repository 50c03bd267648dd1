/**
 * `npm start` on the simulator shows live prices at once: a freshly started feed process (the
 * simulated price path, a function of seed and time) and API process, on a real Redis, serve
 * `open` windows whose strike is the simulated price at each window's start, not `no_strike`
 * until the next window begins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoneyPrecise } from '../../src/domain/money.js';
import { ASSETS, HORIZONS } from '../../src/model/index.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { simulatedPriceAt } from '../../src/sources/simulator/prices.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const SEED = 4242;
const redis = useRedis();
let feed: ServiceProcess;
let api: ServiceProcess;

beforeAll(async () => {
  // Started together, as the launcher does; New Jersey, where Kalshi's 15-minute markets may be shown.
  [feed, api] = await Promise.all([
    spawnProcess('workers/feed/main.ts', testEnv(redis.url, { SIMULATOR_SEED: String(SEED) })),
    spawnProcess('src/main.ts', testEnv(redis.url, { SIMULATOR_SEED: String(SEED), DEFAULT_GEO: 'US-NJ' })),
  ]);
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
}, 60_000);

afterAll(async () => {
  await Promise.all([feed?.stop(), api?.stop()]);
});

const live = async (asset: string, horizon: number) => {
  const res = await fetch(`${api.base}/v1/widgets/live-market?asset=${asset}&horizon_minutes=${horizon}`);
  expect(res.status).toBe(200);
  return LiveMarketPayload.parse(await res.json());
};

describe('simulator: live prices right after start', () => {
  it('every window is open, its strike the simulated price at the window start', async () => {
    for (const asset of ASSETS) {
      for (const horizon of HORIZONS) {
        await expect.poll(async () => (await live(asset, horizon)).market_status, { timeout: 40_000 }).toBe('open');
        const p = await live(asset, horizon);
        // Whichever window is current by now (a roll gets a tick stamped at its start too).
        const strike = formatMoneyPrecise(simulatedPriceAt(SEED, asset, Date.parse(p.window_start)), 'USD');
        expect(p.active_micro_question).toContain(strike);
        // The modelled venue is measured against that strike (Kalshi lists 15-minute windows only).
        expect(p.providers_pool.map((row) => row.operator_id)).toEqual(horizon === 15 ? ['kalshi'] : []);
        for (const row of p.providers_pool) expect(row.live_metrics.target_price).toBe(strike);
        expect(p.spot_price).not.toBeNull();
      }
    }
  }, 120_000);
});
