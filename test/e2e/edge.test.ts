/**
 * A real edge: Debian's nginx with deploy/nginx-edge.conf, in front of the real API (CDN_GEO=cloudflare,
 * TRUST_PROXY=127.0.0.1) and worker on a real Redis. The test sends Cloudflare's geo headers as the
 * CDN would. It shows that a visitor never gets another jurisdiction's body, that a mix of requests
 * over ten jurisdictions and every widget kind is served from the edge (>= 95 %) with the origin
 * asked at most once per variant per s-maxage, that impressions reported through the edge are
 * counted, and that with the origin gone the edge serves the stale bodies. nginx listens on loopback
 * only; its cache and temp files live in a temporary folder. Skipped (one line) without nginx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { impressionsKey } from '../../src/tracking/impression-writes.js';
import {
  cloudflareHeaders,
  EDGE_JURISDICTIONS as JURISDICTIONS,
  hasNginx,
  NGINX,
  originRequests,
  startEdge,
  type Edge,
} from '../support/edge.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/processes.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

if (!hasNginx()) console.warn(`edge.test.ts skipped: ${NGINX} not found (apt-get install nginx)`);

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const codeOf = ([country, region]: [string, string | undefined]) => (region ? `${country}-${region}` : country);
const ROUTES = ['/v1/widgets/event', '/v1/widgets/broad', '/v1/widgets/sportsbook', '/v1/widgets/live-market'];

describe.skipIf(!hasNginx())('nginx edge in front of the API', () => {
  const redis = useRedis();
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let edge: Edge;
  let edgeBase: string;
  let adminBase: string;
  let slug: string;

  beforeAll(async () => {
    const adminPort = await freePort();
    adminBase = `http://127.0.0.1:${adminPort}`;
    const env = testEnv(redis.url);
    worker = await spawnProcess('workers/main.ts', env);
    api = await spawnProcess('src/main.ts', {
      ...env,
      TRUST_PROXY: '127.0.0.1',
      CDN_GEO: 'cloudflare',
      ADMIN_PORT: String(adminPort),
      ADMIN_HOST: '127.0.0.1',
    });
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
    edge = await startEdge(api.port);
    edgeBase = edge.base;
    const catalog = (await (await fetch(`${api.base}/v1/catalog`)).json()) as { events: Array<{ slug: string }> };
    slug = catalog.events[0]!.slug;
  });

  afterAll(async () => {
    await Promise.all([edge?.stop(), api?.stop(), worker?.stop()]);
  });

  const urlOf = (route: string) =>
    route.endsWith('/event')
      ? `${route}?slug=${slug}`
      : route.endsWith('/sportsbook')
        ? `${route}?league=NBA`
        : route.endsWith('/live-market')
          ? `${route}?asset=BTC&horizon_minutes=15`
          : `${route}?limit=5`;
  const viaEdge = (path: string, j: [string, string | undefined], headers: Record<string, string> = {}) =>
    fetch(`${edgeBase}${path}`, { headers: { 'user-agent': BROWSER, ...cloudflareHeaders(j), ...headers } });
  const originCounts = () => originRequests(adminBase);

  it("a visitor in one jurisdiction gets that jurisdiction's body, from the cache too", async () => {
    for (const route of ROUTES) {
      for (const j of JURISDICTIONS) {
        for (let i = 0; i < 2; i++) {
          const res = await viaEdge(urlOf(route), j);
          expect(res.status, route).toBe(200);
          const body = (await res.json()) as { resolved_geo: string; resolved_region: string | null };
          expect(
            body.resolved_region ?? body.resolved_geo,
            `${route} ${codeOf(j)} (${res.headers.get('x-cache-status')})`,
          ).toBe(codeOf(j));
        }
      }
    }
  });

  it('serves a mix over ten jurisdictions and every kind from the edge, asking the origin at most once per variant per s-maxage', async () => {
    // A fixed pseudo-random order (same every run); the broad widget in two reader languages.
    let seed = 2026;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9'];
    const requests = Array.from({ length: 4_000 }, () => {
      const route = ROUTES[Math.floor(next() * ROUTES.length)]!;
      const j = JURISDICTIONS[Math.floor(next() * JURISDICTIONS.length)]!;
      const language = route.endsWith('/broad') ? LANGUAGES[Math.floor(next() * LANGUAGES.length)]! : LANGUAGES[0]!;
      return { route, j, language };
    });
    const sMaxAge = new Map<string, number>();
    const statuses = new Map<string, number>();
    const wrong: string[] = [];
    const before = await originCounts();
    const started = performance.now();
    let i = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (i < requests.length) {
          const { route, j, language } = requests[i++]!;
          const res = await viaEdge(urlOf(route), j, { 'accept-language': language });
          const body = (await res.json()) as { resolved_geo: string; resolved_region: string | null };
          if (res.status !== 200 || (body.resolved_region ?? body.resolved_geo) !== codeOf(j))
            wrong.push(`${route} ${codeOf(j)} ${res.status}`);
          const status = res.headers.get('x-cache-status') ?? 'none';
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          sMaxAge.set(route, Number(/s-maxage=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = await originCounts();
    if (process.env.EDGE_REPORT)
      console.log(
        JSON.stringify({
          seconds,
          statuses: Object.fromEntries(statuses),
          origin: Object.fromEntries([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)])),
        }),
      );
    expect(wrong).toEqual([]);
    // Served from the cache: fresh (HIT), or stale while the edge refreshes it in the background.
    const fromCache = (statuses.get('HIT') ?? 0) + (statuses.get('STALE') ?? 0) + (statuses.get('UPDATING') ?? 0);
    expect(fromCache / requests.length, JSON.stringify(Object.fromEntries(statuses))).toBeGreaterThanOrEqual(0.95);
    // The origin: per variant, the first fill and one refresh per s-maxage at most.
    for (const route of ROUTES) {
      const variants = new Set(requests.filter((r) => r.route === route).map((r) => `${codeOf(r.j)}|${r.language}`))
        .size;
      const bound = variants * (Math.ceil(seconds / sMaxAge.get(route)!) + 1);
      const asked = (after.get(route) ?? 0) - (before.get(route) ?? 0);
      expect(sMaxAge.get(route), route).toBeGreaterThan(0);
      expect(asked, `${route}: ${variants} variants, ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(bound);
    }
  });

  it('impressions reported through the edge are counted, once per visitor (the report is never cached)', async () => {
    const { impression_url: url } = (await (await viaEdge(urlOf('/v1/widgets/broad'), ['GB', undefined])).json()) as {
      impression_url: string;
    };
    const [first] = new URL(url).searchParams.get('o')!.split(',');
    const day = new Date().toISOString().slice(0, 10);
    const count = async () => Number(await redis.client.hget(impressionsKey(first!, day), 'total'));
    const before = await count();
    const reported = new URL(url);
    const visitors = ['81.2.69.30', '81.2.69.31', '81.2.69.32'];
    for (const address of [...visitors, ...visitors]) {
      const res = await viaEdge(`${reported.pathname}${reported.search}`, ['GB', undefined], {
        'x-forwarded-for': address,
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('x-cache-status')).toBe('MISS'); // reached the origin, every time
    }
    await expect.poll(count, { timeout: 5_000, interval: 100 }).toBe(before + visitors.length);
  });

  it('with the origin gone, the edge serves the stale bodies (stale-if-error)', async () => {
    await api.stop();
    for (const route of ROUTES) {
      const j = JURISDICTIONS[0]!;
      // Polled until the cached copy is past its s-maxage: then it is served stale, not an error.
      let status: string | null = null;
      await waitUntil(
        async () => {
          const res = await viaEdge(urlOf(route), j, { 'accept-language': 'en-US,en;q=0.9' });
          expect(res.status, route).toBe(200);
          const body = (await res.json()) as { resolved_geo: string; resolved_region: string | null };
          expect(body.resolved_region ?? body.resolved_geo).toBe(codeOf(j));
          status = res.headers.get('x-cache-status');
          return status === 'STALE';
        },
        10_000,
        () => `${route}: the edge answered ${status}, never STALE`,
      );
      expect(status, route).toBe('STALE');
    }
  });
});
