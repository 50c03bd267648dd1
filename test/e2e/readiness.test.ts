/**
 * Readiness and staleness over real processes: /readyz is 503 only while this instance cannot serve
 * (no snapshots yet); a stopped worker or price feed makes it `degraded` (still 200), the widgets
 * carry the stale flag and the metrics say so; everything recovers without restarting the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { EventWidgetPayload, LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, FAST_REFRESH, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { fedSlug } from '../support/slugs.js';

// The simulator's Fed event today: its slug rolls with the meetings.
const FED = fedSlug();

const redis = useRedis();
let env: Record<string, string>;
let api: ServiceProcess;
let worker: ServiceProcess | undefined;
let feed: ServiceProcess | undefined;
let adminPort: number;

interface Ready {
  status: 'ready' | 'degraded' | 'not_ready';
  redis: string;
  snapshots: Array<{ kind: string; key: string; loaded: boolean; stale: boolean }>;
  price_feed: { stale_assets: string[] };
}
const ready = async () => {
  const res = await fetch(`${api.base}/readyz`);
  return { code: res.status, body: (await res.json()) as Ready };
};
const readyStatus = async () => (await ready()).body.status;
const get = async (path: string) => {
  const res = await fetch(`${api.base}${path}`);
  expect(res.status).toBe(200);
  return res.json() as Promise<unknown>;
};
const eventWidget = async () => EventWidgetPayload.parse(await get(`/v1/widgets/event?slug=${FED}`));
const metric = async (series: string) => {
  const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  adminPort = await freePort();
  // Stale after three missed one-second refreshes, the price feed after two quiet seconds.
  env = testEnv(redis.url, {
    ...FAST_REFRESH,
    STALE_AFTER_INTERVALS: '3',
    LIVE_STALE_AFTER_SECONDS: '2',
    ADMIN_PORT: String(adminPort),
  });
  api = await spawnProcess('src/main.ts', env);
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop(), feed?.stop()]);
});

describe('readiness', () => {
  it('is not ready before the snapshots it needs are loaded, though alive', async () => {
    const { code, body } = await ready();
    expect(code).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(body.redis).toBe('ok');
    expect(body.snapshots.every((s) => !s.loaded)).toBe(true);
    expect((await fetch(`${api.base}/healthz`)).status).toBe(200);
    expect(await metric('predictwire_readiness{status="not_ready"}')).toBe(1);
    expect(await metric('predictwire_readiness{status="ready"}')).toBe(0);
  });

  it('is ready once the worker and the feed run', async () => {
    worker = await spawnProcess('workers/main.ts', env);
    feed = await spawnProcess('workers/feed/main.ts', env);
    await expect.poll(readyStatus, { timeout: 45_000, interval: 250 }).toBe('ready');
    expect((await ready()).code).toBe(200);
    const w = await eventWidget();
    expect(w.stale).toBeUndefined();
    expect(w.data_fetched_at).toBeUndefined();
    expect(await metric('predictwire_snapshot_stale{kind="events",key="all"}')).toBe(0);
    expect(await metric('predictwire_readiness{status="ready"}')).toBe(1);
  }, 60_000);

  it('a stopped worker makes it degraded, not unready; widgets say stale; recovery needs no API restart', async () => {
    await worker!.stop();
    const eventsStale = async () => (await ready()).body.snapshots.find((s) => s.kind === 'events')!.stale;
    await expect.poll(eventsStale, { timeout: 20_000, interval: 250 }).toBe(true);
    const { code, body } = await ready();
    expect(code).toBe(200);
    expect(body.status).toBe('degraded');
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 5_000, interval: 250 }).toBe(true);
    const w = await eventWidget();
    expect(Date.parse(w.data_fetched_at!)).toBeLessThan(Date.now() - 3_000);
    expect(await metric('predictwire_snapshot_stale{kind="events",key="all"}')).toBe(1);
    expect(await metric('predictwire_snapshot_age_seconds{kind="events",key="all"}')).toBeGreaterThan(3);
    // The gauge an alert watches says what /readyz says.
    expect(await metric('predictwire_readiness{status="degraded"}')).toBe(1);
    expect(await metric('predictwire_readiness{status="ready"}')).toBe(0);

    worker = await spawnProcess('workers/main.ts', env);
    await expect.poll(readyStatus, { timeout: 45_000, interval: 250 }).toBe('ready');
    await expect.poll(async () => (await eventWidget()).stale, { timeout: 5_000, interval: 250 }).toBeUndefined();
  }, 90_000);

  it('a silent price feed is degraded too, and its live market shows no spot price', async () => {
    const before = LiveMarketPayload.parse(await get('/v1/widgets/live-market?asset=BTC&horizon_minutes=5'));
    expect(before.spot_price).not.toBeNull();
    await feed!.stop();
    await expect
      .poll(async () => (await ready()).body.price_feed.stale_assets, { timeout: 20_000, interval: 250 })
      .toEqual(['BTC', 'ETH', 'SOL']);
    const { code, body } = await ready();
    expect(code).toBe(200);
    expect(body.status).toBe('degraded');
    // The body is rebuilt every second: it follows within one.
    const liveBtc = async () =>
      LiveMarketPayload.parse(await get('/v1/widgets/live-market?asset=BTC&horizon_minutes=5'));
    await expect.poll(async () => (await liveBtc()).market_status, { timeout: 5_000, interval: 250 }).toBe('stale');
    const after = await liveBtc();
    expect(after.stale).toBe(true);
    expect(after.spot_price).toBeNull();
    expect(after.providers_pool).toEqual([]);
    expect(await metric('predictwire_price_feed_stale{asset="BTC"}')).toBe(1);
  }, 60_000);
});
