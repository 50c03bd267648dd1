/**
 * Limits that must never refuse a legitimate client, over real API processes on a real Redis:
 * a publisher's server keeping 20 widgets fresh through data changes is charged only for the
 * variants it introduced; an address blocked for building new variants still gets those already
 * built; a load balancer checking /readyz as often as it likes is never refused; and a click over
 * the per-address limit still reaches the operator, uncounted. Limits are set low through the
 * settings an operator uses, and every expected number is read from that configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { clicksKey } from '../../src/tracking/click-counter.js';
import { BroadWidgetPayload, CatalogPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, FAST_REFRESH, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
let env: Record<string, string>;
let worker: ServiceProcess;
let api: ServiceProcess;
let other: ServiceProcess;

beforeAll(async () => {
  env = testEnv(redis.url, {
    ...FAST_REFRESH,
    TRUST_PROXY: '127.0.0.1,::1',
    // One process per instance: what an instance built, and its /readyz counts, are per process
    // (with API workers, per worker).
    API_WORKERS: '1',
    // Room for the 20 widgets' first builds, far less than their rebuilds over a few data changes.
    RATE_LIMIT_VARIANT_BUILD: '25/60',
    RATE_LIMIT_READYZ: '3/60',
    RATE_LIMIT_CLICK: '5/60',
  });
  worker = await spawnProcess('workers/main.ts', env);
  [api, other] = await Promise.all([
    spawnProcess('src/main.ts', env),
    spawnProcess('src/main.ts', { ...env, DEMO_ENABLED: 'false' }),
  ]);
  // The balancer's own checks (from a TRUST_PROXY address, no X-Forwarded-For) are never limited.
  await Promise.all([
    waitFor(`${api.base}/readyz`, (s) => s === 200, api),
    waitFor(`${other.base}/readyz`, (s) => s === 200, other),
  ]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), other?.stop(), worker?.stop()]);
});

const limits = () => loadConfig(env).limits;

/** A GET as client `address` (through the trusted proxy). */
const get = (path: string, address: string, base = api.base) =>
  fetch(`${base}${path}`, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': address }, redirect: 'manual' });

/** The events snapshot version this API serves, from its readiness answer. */
async function eventsVersion(): Promise<number> {
  const body = (await (await fetch(`${api.base}/readyz`)).json()) as {
    snapshots: Array<{ kind: string; version: number | null }>;
  };
  return body.snapshots.find((s) => s.kind === 'events')!.version ?? 0;
}

/** Twenty widget requests a publisher's page might hold: events, each league's matchup, broad lists. */
async function twentyWidgets(): Promise<string[]> {
  const catalog = CatalogPayload.parse(await (await get('/v1/catalog', '81.2.80.1')).json());
  const paths = [
    ...catalog.events.slice(0, 10).map((e) => `/v1/widgets/event?slug=${e.slug}`),
    ...catalog.leagues.filter((l) => l.upcoming.length > 0).map((l) => `/v1/widgets/sportsbook?league=${l.league}`),
  ];
  for (let limit = 1; paths.length < 20; limit++) paths.push(`/v1/widgets/broad?fallback_geo=GB&limit=${limit}`);
  return paths.slice(0, 20);
}

describe('variant_build charges what an address causes', () => {
  it('a server-side integration polling 20 widgets through every data change is never refused', async () => {
    const widgets = await twentyWidgets();
    const address = '81.2.80.2';
    const ROUNDS = 6;
    // Each round follows a data change, as a poll every couple of seconds would: every body it reads
    // was dropped and is rebuilt, which on its own would use up the allowance several times over.
    expect(widgets.length * ROUNDS).toBeGreaterThan(limits().variantBuild.points * 2);
    for (let round = 0; round < ROUNDS; round++) {
      const version = await eventsVersion();
      await expect.poll(eventsVersion, { timeout: 10_000, interval: 100 }).toBeGreaterThan(version);
      const statuses = await Promise.all(
        widgets.map(async (path) => {
          const res = await get(path, address);
          await res.arrayBuffer();
          return `${res.status} ${path}`;
        }),
      );
      expect(statuses).toEqual(widgets.map((path) => `200 ${path}`));
    }
    // Charged once per variant it introduced (within the 50 ms batching), nothing for the rebuilds.
    await expect
      .poll(async () => Number(await redis.client.get(`pw:rl:variant_build:${address}`)), { timeout: 2_000 })
      .toBe(widgets.length);
  }, 60_000);

  it('an address blocked for building new variants still gets the bodies already built', async () => {
    const built = '/v1/widgets/broad?fallback_geo=GB&limit=3';
    // Someone else had it built, on each process (what each has built is its own).
    for (const base of [api.base, other.base]) expect((await get(built, '81.2.80.3', base)).status).toBe(200);
    const address = '81.2.80.4';
    // limit × currency: variants nobody else asked for. Charges are taken from Redis after the
    // replies, in batches, so how many go out before the block lands depends on the machine's
    // speed: ask for new ones until it does.
    const fresh = ['EUR', 'CAD', 'AUD', 'JPY'].flatMap((currency) =>
      Array.from({ length: 50 }, (_, i) => `/v1/widgets/broad?fallback_geo=GB&currency=${currency}&limit=${i + 1}`),
    );
    let refused: Response | undefined;
    while (!refused && fresh.length > 0) {
      const res = await get(fresh.shift()!, address);
      if (res.status === 429) refused = res;
      await res.arrayBuffer();
    }
    expect(refused).toBeDefined();
    expect(refused!.headers.get('ratelimit-policy')).toBe(
      `"variant_build";q=${limits().variantBuild.points};w=${limits().variantBuild.seconds}`,
    );
    // Still blocked for new variants, on either process, but served what exists.
    expect((await get(fresh.shift()!, address)).status).toBe(429);
    expect((await get(built, address)).status).toBe(200);
    // The other process hears of the block over Redis: until it has, a new variant is built and
    // served (and then counts as built), so each probe asks for one not yet built there.
    await expect
      .poll(async () => (await get(fresh.shift()!, address, other.base)).status, { timeout: 5_000, interval: 20 })
      .toBe(429);
    expect((await get(built, address, other.base)).status).toBe(200);
  });
});

describe('/readyz behind a load balancer', () => {
  it('the balancer itself (a TRUST_PROXY address) is never limited; a client is, per instance, in memory', async () => {
    const checks = limits().readyz.points * 10;
    for (let i = 0; i < checks; i++)
      for (const base of [api.base, other.base]) expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const client = '81.2.80.10';
    for (let i = 0; i < limits().readyz.points; i++) expect((await get('/readyz', client)).status).toBe(200);
    expect((await get('/readyz', client)).status).toBe(429);
    // Counted by each instance for itself: the other one has its own allowance, and Redis holds nothing.
    expect((await get('/readyz', client, other.base)).status).toBe(200);
    expect(await redis.client.keys('pw:rl:readyz*')).toEqual([]);
  });
});

describe('clicks over the limit', () => {
  it('are redirected like any other, and not counted', async () => {
    const widget = await get('/v1/widgets/broad?fallback_geo=GB&limit=2', '81.2.80.20');
    const links = BroadWidgetPayload.parse(await widget.json()).operators.map((o) => new URL(o.routing.web_url));
    const [first, second] = links as [URL, URL];
    const day = new Date().toISOString().slice(0, 10);
    const operator = (link: URL) => link.searchParams.get('o')!;
    const before = await redis.client.pfcount(clicksKey(operator(second), day));
    const address = '81.2.80.21';
    const allowance = limits().click.points;
    for (let i = 0; i < allowance; i++)
      expect((await get(`${first.pathname}${first.search}`, address)).status).toBe(302);
    // The click past the allowance, to an operator this visitor has not clicked yet: redirected, uncounted.
    const over = await get(`${second.pathname}${second.search}`, address);
    expect(over.status).toBe(302);
    expect(over.headers.get('location')).toBeTruthy();
    // A counted click after it, from someone else: once that one is written, so is anything before it.
    const probe = await get(`${second.pathname}${second.search}`, '81.2.80.22');
    expect(probe.status).toBe(302);
    await expect
      .poll(() => redis.client.pfcount(clicksKey(operator(second), day)), { timeout: 5_000 })
      .toBe(before + 1);
  });
});

describe('DEMO_ENABLED', () => {
  it('serves /demo by default outside production, and not when turned off', async () => {
    expect(loadConfig(env).demoEnabled).toBe(true);
    expect((await fetch(`${api.base}/demo`)).status).toBe(200);
    expect((await fetch(`${other.base}/demo`)).status).toBe(404);
  });
});
