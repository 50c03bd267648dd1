/**
 * End to end: the broad widget and click tracking on the real worker and API processes against a
 * real redis-server, called from a loopback client (so geo lookup fails and fallback_geo decides).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogView } from '../../src/catalog/shown-operators.js';
import { complianceState } from '../../src/catalog/compliance/state.js';
import type { Operator } from '../../src/catalog/operator-schema.js';
import type { Locale } from '../../src/model/index.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { NEUTRAL_CTA, offerFor } from '../../src/catalog/promotion-policy.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { clicksByKey, clicksKey } from '../../src/tracking/click-counter.js';
import { impressionsKey } from '../../src/tracking/impression-writes.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { requestThroughTwoWorkers, TWO_LOGGED_WORKERS } from '../support/api-workers.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let api: ServiceProcess;
let proxied: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;
const ADVERTISER = 'broad-e2e';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';

beforeAll(async () => {
  const env = testEnv(redis.url);
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  // A second API process behind a "proxy" on loopback: X-Forwarded-For is believed only there.
  // Two API workers, every request in the access log: a visitor's impression reports reach both.
  proxied = await spawnProcess('src/main.ts', { ...env, TRUST_PROXY: '127.0.0.1,::1', ...TWO_LOGGED_WORKERS });
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Broad E2E', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  await waitFor(`${proxied.base}/readyz`, (s) => s === 200, proxied);
});

afterAll(async () => {
  await Promise.all([api?.stop(), proxied?.stop(), worker?.stop()]);
});

const get = (path: string, headers: Record<string, string> = {}, base = api.base) =>
  fetch(`${base}${path}`, { headers: { 'user-agent': BROWSER, ...headers }, redirect: 'manual' });
const byName = new Map(OPERATORS.map((op) => [op.name, op]));
const day = () => new Date().toISOString().slice(0, 10);

/** What the catalog's offers and the promotion policy give `op` for a visitor from `country`. */
function incentives(op: Operator, country: string, locale: Locale) {
  const offer = offerFor(op, country, complianceState().rules);
  const copy = offer && (offer.copy[locale] ?? offer.copy.en);
  return {
    promo_text: copy?.promoText ?? '',
    promo_code: offer?.promoCode ?? '',
    cta_label: copy?.ctaLabel ?? NEUTRAL_CTA[locale],
    promo_terms: (copy?.terms ?? offer?.copy.en.terms) || '',
    promo_terms_url: offer?.termsUrl ?? '',
  };
}

/** "€96.7M" → 96.7e6 (the test's own parser). */
function moneyValue(s: string, symbol: string): number {
  expect(s.startsWith(symbol)).toBe(true);
  const m = /^([\d,]+(?:\.\d+)?)([KMB]?)$/.exec(s.slice(symbol.length))!;
  return Number(m[1]!.replaceAll(',', '')) * ({ '': 1, K: 1e3, M: 1e6, B: 1e9 } as Record<string, number>)[m[2]!]!;
}

async function broad(query: string, headers: Record<string, string> = {}, base = api.base) {
  const res = await get(`/v1/widgets/broad?${query}`, headers, base);
  expect(res.status).toBe(200);
  return { res, body: BroadWidgetPayload.parse(await res.json()) };
}

describe('broad widget', () => {
  it('fallback_geo=GB&currency=EUR&limit=3: three operators allowed in GB, euro strings, English promos', async () => {
    const { res, body } = await broad('fallback_geo=GB&currency=EUR&limit=3');
    expect(body.resolved_geo).toBe('GB');
    expect(body.operators.map((o) => o.rank)).toEqual([1, 2, 3]);
    for (const o of body.operators) {
      const op = byName.get(o.operator_name)!;
      expect(catalogView('GB').operatorOn(op.id, 'all') !== undefined, op.id).toBe(true);
      expect(o.incentives).toEqual(incentives(op, 'GB', 'en'));
      expect(o.rating).toBe(`${op.rating.toFixed(1)}/5`);
      expect(o.routing.app_store_available).toEqual(op.appStores);
      for (const v of [o.metrics.volume_24h, o.metrics.avg_value_per_event]) expect(v).toMatch(/^€/);
      // every operator in GB is a sportsbook: none has an order book whose depth could be shown
      expect(op.kind === 'sportsbook' ? o.metrics.total_liquidity : 'n/a').toBeNull();
      const link = new URL(o.routing.web_url);
      expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:${api.port}/v1/click`);
      expect(link.searchParams.get('c')).toBe('GB');
      expect(link.searchParams.get('w')).toBe('broad');
      expect(link.searchParams.get('p')).toBe(`rank-${o.rank}`);
    }
    expect(body.trending_summary.global_24h_volume).toMatch(/^€/);
    // country-dependent: never stored by a shared cache; browsers re-ask per language
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(res.headers.get('vary')).toBe('Accept-Language, X-Advertiser-Id, Accept-Encoding');

    // Amounts are the snapshot's USD figures at the FX rate (when no refresh landed in between).
    const [metrics, fx] = await Promise.all([
      readSnapshot(redis.client, 'metrics', 'all'),
      readSnapshot(redis.client, 'fx', 'daily'),
    ]);
    if (metrics!.changedAt === body.timestamp) {
      const rate = fx!.data.rates.EUR!;
      for (const o of body.operators) {
        const m = metrics!.data.operators.find((x) => x.operatorId === byName.get(o.operator_name)!.id)!;
        const shown = moneyValue(o.metrics.volume_24h, '€');
        expect(Math.abs(shown - m.volume24hUsd * rate) / (m.volume24hUsd * rate)).toBeLessThan(0.005);
      }
      const allowed = metrics!.data.operators.filter(
        (m) => catalogView('GB').operatorOn(m.operatorId, 'all') !== undefined,
      );
      const top = [...allowed].sort((a, b) => b.volume24hUsd - a.volume24hUsd)[0]!;
      expect(body.operators.map((o) => byName.get(o.operator_name)!.id)).toContain(top.operatorId);
    }
  });

  it('fallback_geo=ES: Spanish copy and a different operator set where the rules differ', async () => {
    const gb = (await broad('fallback_geo=GB&limit=50')).body;
    const es = (await broad('fallback_geo=ES&limit=50')).body;
    expect(es.resolved_geo).toBe('ES');
    expect(es.operators.length).toBeGreaterThan(0);
    for (const o of es.operators) {
      const op = byName.get(o.operator_name)!;
      expect(catalogView('ES').operatorOn(op.id, 'all') !== undefined, op.id).toBe(true);
      expect(o.incentives).toEqual(incentives(op, 'ES', 'es'));
      expect(o.metrics.volume_24h).toMatch(/^€/); // ES defaults to its own currency
    }
    expect(es.disclosures?.ad_label).toBe('Publicidad');
    expect(gb.operators[0]!.metrics.volume_24h).toMatch(/^£/);
    const names = (b: typeof gb) => b.operators.map((o) => o.operator_name).sort();
    expect(names(es)).not.toEqual(names(gb));
    expect(names(gb)).toContain('Betfair Exchange');
    expect(names(es)).not.toContain('Betfair Exchange');
    // Accept-Language naming a catalog locale wins over the country
    const fr = (await broad('fallback_geo=ES', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' })).body;
    expect(fr.operators[0]!.incentives).toEqual(incentives(byName.get(fr.operators[0]!.operator_name)!, 'ES', 'fr'));
    expect(fr.disclosures?.ad_label).toBe('Publicité');
  });

  it('without fallback_geo a loopback client is ZZ: only operators allowed everywhere (none)', async () => {
    const { body } = await broad('');
    expect(body.resolved_geo).toBe('ZZ');
    expect(body.operators).toEqual([]);
    expect(body.trending_summary.global_24h_volume).toMatch(/^\$/);
    // a forged X-Forwarded-For from an untrusted peer changes nothing
    expect((await broad('', { 'x-forwarded-for': '8.8.8.8' })).body.resolved_geo).toBe('ZZ');
  });

  it('behind a trusted proxy the forwarded client address decides, down to its state', async () => {
    const us = (await broad('fallback_geo=GB', { 'x-forwarded-for': '8.8.8.8' }, proxied.base)).body;
    expect(us.resolved_geo).toBe('US');
    expect(us.resolved_region).toMatch(/^US-[A-Z]{2}$/);
    expect(us.operators.length).toBeGreaterThan(0);
    for (const o of us.operators)
      expect(catalogView(us.resolved_region!).operatorOn(byName.get(o.operator_name)!.id, 'all') !== undefined).toBe(
        true,
      );
    expect(us.operators[0]!.metrics.volume_24h).toMatch(/^\$/);
    // a private forwarded address falls back like a direct one
    expect((await broad('fallback_geo=GB', { 'x-forwarded-for': '10.1.2.3' }, proxied.base)).body.resolved_geo).toBe(
      'GB',
    );
  });

  it.each([
    ['fallback_geo=gb', 'fallback_geo'],
    ['fallback_geo=XX', 'fallback_geo'],
    ['fallback_geo=GBR', 'fallback_geo'],
    ['fallback_geo=US-XX', 'fallback_geo'],
    ['currency=XYZ', 'currency'],
    ['currency=eur', 'currency'],
    ['limit=0', 'limit'],
    ['limit=51', 'limit'],
    ['limit=2.5', 'limit'],
  ])('?%s is a 400 naming %s', async (query, param) => {
    const res = await get(`/v1/widgets/broad?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; errors: Array<{ param: string }> };
    expect(body.code).toBe('invalid_parameter');
    expect(body.errors.map((e) => e.param)).toEqual([param]);
  });

  it('the advertiser variant needs credentials and attributes its links', async () => {
    expect((await get('/advertiser/v1/widgets/broad?geo=GB')).status).toBe(401);
    const res = await get('/advertiser/v1/widgets/broad?geo=GB', {
      'x-advertiser-id': ADVERTISER,
      'x-api-key': apiKey,
    });
    expect(res.status).toBe(200);
    const body = BroadWidgetPayload.parse(await res.json());
    expect(new URL(body.operators[0]!.routing.web_url).searchParams.get('a')).toBe(ADVERTISER);
  });

  it("fetching counts nothing; the payload's impression_url counts each operator shown once per visitor and day, across API workers", async () => {
    const { body } = await broad('fallback_geo=US-NJ&limit=2');
    const ids = body.operators.map((o) => byName.get(o.operator_name)!.id);
    expect(ids).toHaveLength(2);
    const url = new URL(body.impression_url!);
    const count = async (id: string) => Number(await redis.client.hget(impressionsKey(id, day()), 'total'));
    const counts = () => Promise.all(ids.map(count));
    const before = await counts();
    // Viewers reporting through the trusted proxy, each from their own address.
    const report = (address: string, headers: Record<string, string> = {}, method = 'GET', search = url.search) =>
      fetch(`${proxied.base}${url.pathname}${search}`, {
        method,
        headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers },
      });
    expect((await report('81.2.69.20')).status).toBe(204);
    // The same visitor again, through both API workers: not counted.
    const again = await requestThroughTwoWorkers(proxied, `${proxied.base}${url.pathname}${url.search}`, {
      'user-agent': BROWSER,
      'x-forwarded-for': '81.2.69.20',
    });
    expect(again.every((s) => s === 204)).toBe(true);
    expect((await report('81.2.69.21', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).status).toBe(204);
    expect((await report('81.2.69.22', {}, 'HEAD')).status).toBe(204);
    expect((await report('81.2.69.23')).status).toBe(204);
    await expect.poll(counts, { timeout: 5_000, interval: 100 }).toEqual(before.map((n) => n + 2));
    expect(await redis.client.hget(impressionsKey(ids[0]!, day()), 'widget:broad')).not.toBeNull();
    // Fetches before the next report count nothing: the count moves by that report alone.
    for (let i = 0; i < 3; i++) await broad('fallback_geo=US-NJ&limit=2');
    expect((await report('81.2.69.24')).status).toBe(204);
    await expect.poll(counts, { timeout: 5_000, interval: 100 }).toEqual(before.map((n) => n + 3));
    // Forged lists and expired URLs are refused.
    const forged = url.search.replace(/o=[^&]+/, `o=${ids[0]}`);
    const refused = await report('81.2.69.25', {}, 'GET', forged);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('invalid_link');
  });
});

describe('click tracking', () => {
  it('following a web_url counts a click once and lands on the affiliate URL with sub-ids', async () => {
    const { body } = await broad('fallback_geo=GB&limit=3');
    const entry = body.operators[0]!;
    const op = byName.get(entry.operator_name)!;
    const clicks = () => redis.client.pfcount(clicksKey(op.id, day()));
    const before = await clicks();
    const link = new URL(entry.routing.web_url);
    const res = await get(`${link.pathname}${link.search}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    const affiliate = new URL(op.affiliateUrl);
    expect(`${location.origin}${location.pathname}`).toBe(`${affiliate.origin}${affiliate.pathname}`);
    for (const [k, v] of affiliate.searchParams) expect(location.searchParams.get(k)).toBe(v);
    if (op.subIdParams?.impression)
      expect(location.searchParams.get(op.subIdParams.impression)).toBe(link.searchParams.get('i'));
    // clicks are buffered in memory and written about once a second
    await expect.poll(clicks, { timeout: 5_000, interval: 100 }).toBe(before + 1);
    expect(await redis.client.pfcount(clicksByKey(op.id, day(), 'country:GB'))).toBeGreaterThan(0);

    // the same visitor again, even with another user agent: redirected, not counted again
    expect((await get(`${link.pathname}${link.search}`)).status).toBe(302);
    expect((await get(`${link.pathname}${link.search}`, { 'user-agent': 'Another Browser/1.0' })).status).toBe(302);
    // new visitors (through the trusted proxy) that are a bot, a prefetch or a HEAD: not counted
    const via = (address: string, headers: Record<string, string> = {}, method = 'GET') =>
      fetch(`${proxied.base}${link.pathname}${link.search}`, {
        method,
        headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers },
        redirect: 'manual',
      });
    expect((await via('81.2.69.10', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).status).toBe(302);
    expect((await via('81.2.69.11', { 'sec-purpose': 'prefetch' })).status).toBe(302);
    expect((await via('81.2.69.12', {}, 'HEAD')).status).toBe(302);
    // a person at another address counts; everything above was buffered before it
    expect((await via('81.2.69.142')).status).toBe(302);
    await expect.poll(clicks, { timeout: 5_000, interval: 100 }).toBeGreaterThanOrEqual(before + 2);
    expect(await clicks()).toBe(before + 2);
  });

  it('changing any character of the link is refused, never redirected', async () => {
    const { body } = await broad('fallback_geo=GB&limit=1');
    const link = new URL(body.operators[0]!.routing.web_url);
    const query = link.search.slice(1);
    // one changed character in each parameter, and in the signature
    const positions = [...query.matchAll(/(?:^|&)[a-z]=/g)].map((m) => m.index + m[0].length);
    for (const i of positions) {
      const c = query[i]!;
      const altered = query.slice(0, i) + (c === 'x' ? 'y' : 'x') + query.slice(i + 1);
      const res = await get(`/v1/click?${altered}`);
      expect(res.status, altered).toBe(403);
      expect(res.headers.get('location')).toBeNull();
      expect(((await res.json()) as { code: string }).code).toBe('invalid_link');
    }
  });
});
