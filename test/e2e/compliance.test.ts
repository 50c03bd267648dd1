/**
 * Compliance end to end: every widget class from the real API and worker processes on a real
 * redis-server, per visitor country, from a loopback client (fallback_geo decides), from behind a
 * trusted proxy (X-Forwarded-For decides), over WebSocket, and on the advertiser endpoints (geo).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { COMPLIANCE } from '../../src/catalog/compliance.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import type { Tick } from '../../src/live/market.js';
import { ticksChannel } from '../../src/store/keys.js';
import {
  BroadWidgetPayload,
  EventListPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import { seedStrike } from '../support/live.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let api: ServiceProcess;
let proxied: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;
const ADVERTISER = 'compliance-e2e';
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'BR', 'IN', 'JP'];
/** A public US address (Google DNS): the country database places it in the US. */
const US_ADDRESS = '8.8.8.8';
const idByName = new Map(OPERATORS.map((op) => [op.name, op.id]));

beforeAll(async () => {
  const env = testEnv(redis.url);
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  proxied = await spawnProcess('src/main.ts', { ...env, TRUST_PROXY: '127.0.0.1,::1' });
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Compliance E2E', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  await waitFor(`${proxied.base}/readyz`, (s) => s === 200, proxied);
});

afterAll(async () => {
  await Promise.all([api?.stop(), proxied?.stop(), worker?.stop()]);
});

async function json(path: string, headers: Record<string, string> = {}, base = api.base): Promise<{ body: unknown; cacheControl: string | null }> {
  const res = await fetch(`${base}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return { body: await res.json(), cacheControl: res.headers.get('cache-control') };
}
const adv = (): Record<string, string> => ({ 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey });

async function eventSlugs(): Promise<string[]> {
  return EventListPayload.parse((await json('/advertiser/v1/widgets/events', adv())).body).data.events;
}

const publishTick = (asset: Tick['asset'], price: number) =>
  redis.client.publish(ticksChannel(asset), JSON.stringify({ asset, price, ts: new Date().toISOString(), source: 'test' } satisfies Tick));

/** Every operator id a widget of each class shows for `query` (fallback_geo or geo), plus the bodies. */
async function allWidgets(query: string, headers: Record<string, string> = {}, base = api.base, prefix = '') {
  const [slug] = await eventSlugs();
  const broad = await json(`${prefix}/v1/widgets/broad?limit=50&${query}`, headers, base);
  const event = await json(`${prefix}/v1/widgets/event?slug=${slug}&${query}`, headers, base);
  const book = await json(`${prefix}/v1/widgets/sportsbook?league=NBA&${query}`, headers, base);
  const live = await json(`${prefix}/v1/widgets/live-market?asset=BTC&horizon_minutes=15&${query}`, headers, base);
  const b = BroadWidgetPayload.parse(broad.body);
  const e = EventWidgetPayload.parse(event.body);
  const s = SportsbookWidgetPayload.parse(book.body);
  const l = LiveMarketPayload.parse(live.body);
  return {
    bodies: { broad: b, event: e, sportsbook: s, live: l },
    geos: [b.resolved_geo, e.resolved_geo, s.resolved_geo, l.resolved_geo],
    cacheControl: [broad.cacheControl, event.cacheControl, book.cacheControl, live.cacheControl],
    shown: {
      broad: b.operators.map((o) => idByName.get(o.operator_name)!),
      event: e.outcomes.flatMap((o) => o.comparison_pool.map((c) => c.operator_id)),
      sportsbook: s.odds_matrix.operators.map((o) => idByName.get(o.name)!),
      live: l.providers_pool.map((p) => p.operator_id),
    },
  };
}

describe('every widget class, per visitor country (fallback_geo from loopback)', () => {
  beforeAll(async () => {
    // A strike stored as an instance that caught the window start would, then ticks, open the live
    // market so its pool has something to filter.
    await seedStrike(redis.client, 'BTC', 15, 97_000);
    await publishTick('BTC', 97_000);
    const deadline = Date.now() + 5_000;
    const status = async () => LiveMarketPayload.parse((await json('/v1/widgets/live-market?asset=BTC&horizon_minutes=15&fallback_geo=JP')).body).market_status;
    while ((await status()) !== 'open' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe('open');
  });

  it.each(COUNTRIES)('%s: only operators allowed there, resolved_geo says so, private caching', async (country) => {
    const w = await allWidgets(`fallback_geo=${country}`);
    expect(w.geos).toEqual([country, country, country, country]);
    for (const cc of w.cacheControl) expect(cc).toMatch(/^private, max-age=\d+$/);
    for (const [widget, ids] of Object.entries(w.shown)) {
      for (const id of ids) expect(COMPLIANCE.isAllowed(id, country), `${widget} shows ${id} in ${country}`).toBe(true);
    }
    if (country === 'US') {
      for (const ids of Object.values(w.shown)) expect(ids.filter((id) => id === 'polymarket' || id === 'limitless')).toEqual([]);
      // ...and still shows full widgets
      expect(w.shown.broad.length).toBeGreaterThan(3);
      expect(w.shown.sportsbook.length).toBeGreaterThan(3);
      expect(w.shown.live).toEqual(['kalshi']);
    }
    if (country === 'IN' || country === 'BR') {
      for (const ids of Object.values(w.shown)) expect(ids.filter((id) => ['polymarket', 'limitless', 'kalshi'].includes(id))).toEqual([]);
    }
    if (country === 'JP') expect(w.shown.live.sort()).toEqual(['kalshi', 'limitless', 'polymarket']);
    if (country === 'CA' || country === 'AU') {
      expect(w.shown.broad.length).toBeGreaterThan(0);
      for (const o of w.bodies.broad.operators) expect([o.incentives.promo_text, o.incentives.promo_code]).toEqual(['', '']);
      for (const c of w.bodies.event.outcomes.flatMap((o) => o.comparison_pool)) expect(c.promo_applied).toBeUndefined();
      for (const p of w.bodies.live.providers_pool) expect(p.incentives.coupon_value).toBe('');
    }
  });

  it('a US visitor gets US offers; GB, DE and BR visitors never see a US-dollar offer', async () => {
    const us = BroadWidgetPayload.parse((await json('/v1/widgets/broad?limit=50&fallback_geo=US')).body);
    expect(us.operators.some((o) => o.incentives.promo_code !== '')).toBe(true);
    for (const country of ['GB', 'DE', 'BR']) {
      const body = BroadWidgetPayload.parse((await json(`/v1/widgets/broad?limit=50&fallback_geo=${country}`)).body);
      for (const o of body.operators) expect(o.incentives.promo_text, `${country} ${o.operator_name}`).not.toContain('$');
    }
  });
});

describe('behind a trusted proxy, X-Forwarded-For of a US address decides', () => {
  it('every widget class resolves to US and shows neither Polymarket nor Limitless', async () => {
    const w = await allWidgets('fallback_geo=JP', { 'x-forwarded-for': US_ADDRESS }, proxied.base);
    expect(w.geos).toEqual(['US', 'US', 'US', 'US']);
    for (const ids of Object.values(w.shown)) expect(ids.filter((id) => id === 'polymarket' || id === 'limitless')).toEqual([]);
    expect(w.shown.sportsbook.length).toBeGreaterThan(3);
  });

  it('the same header from an untrusted peer is ignored (fallback_geo decides)', async () => {
    const w = await allWidgets('fallback_geo=JP', { 'x-forwarded-for': US_ADDRESS });
    expect(w.geos).toEqual(['JP', 'JP', 'JP', 'JP']);
  });
});

describe('advertiser endpoints take the viewer country as geo', () => {
  it('widgets filter by geo, not by the calling server', async () => {
    const w = await allWidgets('geo=IN&fallback_geo=US', adv(), api.base, '/advertiser');
    expect(w.geos).toEqual(['IN', 'IN', 'IN', 'IN']);
    for (const ids of Object.values(w.shown)) expect(ids).toEqual([]);
    // geo on a public route grants nothing: the public route resolves the caller
    const pub = await allWidgets('geo=JP&fallback_geo=US');
    expect(pub.geos).toEqual(['US', 'US', 'US', 'US']);
  });

  it('the A/B comparison says whether A and B may be shown for the geo', async () => {
    const [slug] = await eventSlugs();
    const flags = async (geo: string) => {
      const body = SpecificEventPayload.parse((await json(`/advertiser/v1/widgets/specific/${slug}?geo=${geo}`, adv())).body);
      expect(body.data.resolved_geo).toBe(geo);
      return [body.data.operators.operatorA.allowed_in_geo, body.data.operators.operatorB.allowed_in_geo];
    };
    expect(await flags('US')).toEqual([true, false]);
    expect(await flags('JP')).toEqual([true, true]);
    expect(await flags('BR')).toEqual([false, false]);
    const bad = await fetch(`${api.base}/advertiser/v1/widgets/specific/${slug}?geo=XX`, { headers: adv() });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: Array<{ param: string }> }).errors.map((e) => e.param)).toEqual(['geo']);
  });

  it('every slug of the events list answers at least one outcome in its A/B comparison', async () => {
    const slugs = await eventSlugs();
    expect(slugs.length).toBeGreaterThan(5);
    for (const slug of slugs) {
      const body = SpecificEventPayload.parse((await json(`/advertiser/v1/widgets/specific/${slug}`, adv())).body);
      expect(body.data.outcomes.length, slug).toBeGreaterThan(0);
    }
  });
});

describe('WebSocket topics respect the subscriber country (resolved at upgrade)', () => {
  async function firstFrame(url: string, topic: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const ws = new WebSocket(url, { headers });
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const frame = new Promise<Record<string, unknown>>((resolve) => ws.on('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)));
      ws.send(JSON.stringify({ op: 'subscribe', topic }));
      return await frame;
    } finally {
      ws.close();
    }
  }
  const wsBase = (p: ServiceProcess) => `${p.base.replace('http', 'ws')}/v1/ws`;

  it('live-market and event topics carry the country of the subscriber', async () => {
    const [slug] = await eventSlugs();
    for (const [url, headers, country] of [
      [`${wsBase(api)}?fallback_geo=IN`, {}, 'IN'],
      [`${wsBase(api)}?fallback_geo=JP`, {}, 'JP'],
      [`${wsBase(proxied)}?fallback_geo=JP`, { 'x-forwarded-for': US_ADDRESS }, 'US'],
    ] as const) {
      const live = await firstFrame(url, 'live-market:BTC:15', headers);
      expect(live.topic).toBe('live-market:BTC:15');
      const l = LiveMarketPayload.parse(live.data);
      expect(l.resolved_geo).toBe(country);
      for (const p of l.providers_pool) expect(COMPLIANCE.isAllowed(p.operator_id, country), `${country} ${p.operator_id}`).toBe(true);
      const event = await firstFrame(url, `event:${slug}`, headers);
      expect(event.topic).toBe(`event:${slug}`);
      const e = EventWidgetPayload.parse(event.data);
      expect(e.resolved_geo).toBe(country);
      for (const c of e.outcomes.flatMap((o) => o.comparison_pool)) expect(COMPLIANCE.isAllowed(c.operator_id, country)).toBe(true);
    }
  });

  it('refuses a bad fallback_geo at upgrade with a 400', async () => {
    const ws = new WebSocket(`${wsBase(api)}?fallback_geo=gb`);
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(400);
  });
});
