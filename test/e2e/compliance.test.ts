/**
 * Compliance end to end: every widget class from the real API and worker processes on a real
 * redis-server, per visitor jurisdiction, from a loopback client (fallback_geo decides), from
 * behind a trusted proxy (a trusted CDN's geo headers, else X-Forwarded-For in the IP database),
 * over WebSocket, on the advertiser endpoints (geo, else ZZ), and through the click redirect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { catalogView, type Surface } from '../../src/catalog/shown-operators.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { LocationDb } from '../../src/geo/location-db.js';
import { parseIp } from '../../src/geo/ip.js';
import { subdivisionByName } from '../../src/geo/subdivisions.js';
import type { Tick } from '../../src/model/index.js';
import { ticksChannel } from '../../src/store/keys.js';
import {
  BroadWidgetPayload,
  CatalogPayload,
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
const JURISDICTIONS = ['US-NJ', 'US-TX', 'US', 'GB', 'DE', 'FR', 'CA-ON', 'CA-BC', 'AU', 'BR', 'ES', 'IN', 'JP', 'CN'];
/** A public US address: the location database places it in a US state (read from the database below). */
const US_ADDRESS = '24.0.0.1';
/** Its jurisdiction, as the database says ("US-NJ" today). */
let usAddressJurisdiction: string;
const idByName = new Map(OPERATORS.map((op) => [op.name, op.id]));

beforeAll(async () => {
  const found = (await LocationDb.open()).locate(parseIp(US_ADDRESS)!)!;
  usAddressJurisdiction = subdivisionByName(found.country, found.subdivisionName!)!;
  expect(usAddressJurisdiction).toMatch(/^US-[A-Z]{2}$/);
  const env = testEnv(redis.url);
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  proxied = await spawnProcess('src/main.ts', { ...env, TRUST_PROXY: '127.0.0.1,::1', CDN_GEO: 'cloudflare' });
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Compliance E2E', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
  await waitFor(`${proxied.base}/readyz`, (s) => s === 200, proxied);
});

afterAll(async () => {
  await Promise.all([api?.stop(), proxied?.stop(), worker?.stop()]);
});

async function json(
  path: string,
  headers: Record<string, string> = {},
  base = api.base,
): Promise<{ body: unknown; cacheControl: string | null; vary: string | null }> {
  const res = await fetch(`${base}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return { body: await res.json(), cacheControl: res.headers.get('cache-control'), vary: res.headers.get('vary') };
}
const adv = (): Record<string, string> => ({ 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey });

async function eventSlugs(): Promise<string[]> {
  return EventListPayload.parse((await json('/advertiser/v1/widgets/events', adv())).body).data.events;
}

const publishTick = (asset: Tick['asset'], price: number) =>
  redis.client.publish(
    ticksChannel(asset),
    JSON.stringify({ asset, price, ts: new Date().toISOString(), source: 'test' } satisfies Tick),
  );

/** Every operator id a widget of each class shows for `query` (fallback_geo or geo), plus the bodies. */
async function allWidgets(query: string, headers: Record<string, string> = {}, base = api.base, prefix = '') {
  const [slug] = await eventSlugs();
  const broad = await json(`${prefix}/v1/widgets/broad?limit=50&${query}`, headers, base);
  const event = await json(`${prefix}/v1/widgets/event?slug=${slug}&${query}`, headers, base);
  const book = await json(`${prefix}/v1/widgets/sportsbook?league=NBA&${query}`, headers, base);
  const live = await json(`${prefix}/v1/widgets/live-market?asset=BTC&horizon_minutes=15&${query}`, headers, base);
  const b = BroadWidgetPayload.parse(broad.body);
  const e = EventWidgetPayload.parse(event.body);
  const category = CatalogPayload.parse((await json('/v1/catalog')).body).events.find((x) => x.slug === slug)!.category;
  const s = SportsbookWidgetPayload.parse(book.body);
  const l = LiveMarketPayload.parse(live.body);
  return {
    bodies: { broad: b, event: e, sportsbook: s, live: l },
    geos: [b.resolved_geo, e.resolved_geo, s.resolved_geo, l.resolved_geo],
    regions: [b.resolved_region, e.resolved_region, s.resolved_region, l.resolved_region],
    cacheControl: [broad.cacheControl, event.cacheControl, book.cacheControl, live.cacheControl],
    vary: [broad.vary, event.vary, book.vary, live.vary],
    /** The surface each widget shows operators on. */
    surfaces: { broad: 'all', event: category, sportsbook: 'sports', live: 'crypto' } satisfies Record<string, Surface>,
    shown: {
      broad: b.operators.map((o) => idByName.get(o.operator_name)!),
      event: e.outcomes.flatMap((o) => o.comparison_pool.map((c) => c.operator_id)),
      sportsbook: s.odds_matrix.operators.map((o) => idByName.get(o.name)!),
      live: l.providers_pool.map((p) => p.operator_id),
    },
  };
}

/** Whether the rules this test process holds (the bundled ones, as the service's) show `id` on `surface` in `code`. */
const mayShow = (id: string, code: string, surface: Surface) => catalogView(code).operatorOn(id, surface) !== undefined;

/** The code a payload's resolved_geo and resolved_region say together. */
const codeOf = (geo: string, region: string | null) => region ?? geo;

describe('every widget class, per visitor jurisdiction (fallback_geo from loopback)', () => {
  beforeAll(async () => {
    // A strike stored as an instance that caught the window start would, then ticks, open the live
    // market so its pool has something to filter.
    await seedStrike(redis.client, 'BTC', 15, 97_000);
    await publishTick('BTC', 97_000);
    const deadline = Date.now() + 5_000;
    const status = async () =>
      LiveMarketPayload.parse(
        (await json('/v1/widgets/live-market?asset=BTC&horizon_minutes=15&fallback_geo=US-NJ')).body,
      ).market_status;
    while ((await status()) !== 'open' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe('open');
  });

  it.each(JURISDICTIONS)(
    '%s: only operators allowed there, resolved_geo and resolved_region say so, private caching',
    async (code) => {
      const w = await allWidgets(`fallback_geo=${code}`);
      expect(w.geos).toEqual(Array(4).fill(code.slice(0, 2)));
      expect(w.regions).toEqual(Array(4).fill(code.length > 2 ? code : null));
      for (const cc of w.cacheControl) expect(cc).toMatch(/^private, max-age=\d+$/);
      for (const [widget, ids] of Object.entries(w.shown)) {
        for (const id of ids)
          expect(
            mayShow(id, code, w.surfaces[widget as keyof typeof w.surfaces]),
            `${widget} shows ${id} in ${code}`,
          ).toBe(true);
      }
      // disclosures exactly where an operator is shown
      const bodies = [w.bodies.broad, w.bodies.event, w.bodies.sportsbook, w.bodies.live];
      const counts = Object.values(w.shown).map((ids) => ids.length);
      for (const [i, b] of bodies.entries())
        expect(b.disclosures === null, `${code} widget ${i}`).toBe(counts[i] === 0);
      if (code === 'US-NJ') {
        // full widgets, with New Jersey's disclosures
        expect(w.shown.broad.length).toBeGreaterThan(3);
        expect(w.shown.sportsbook.length).toBeGreaterThan(3);
        expect(w.shown.live).toEqual(['kalshi']);
        expect(w.bodies.sportsbook.disclosures).toMatchObject({
          min_age: 21,
          ad_label: 'Advertisement',
          responsible_gambling: { phone: '1-800-GAMBLER' },
        });
        // every sportsbook row links out through a signed click link for New Jersey
        for (const o of w.bodies.sportsbook.odds_matrix.operators)
          expect(new URL(o.routing.web_url).searchParams.get('c')).toBe('US-NJ');
      }
      // no online sports betting in Texas; British Columbia's only lawful site is the Crown's
      if (code === 'US-TX') expect(w.shown.sportsbook.filter((id) => operatorKind(id) === 'sportsbook')).toEqual([]);
      // deny by default: an unknown US region, and countries no rule lists, show nothing at all
      if (['US', 'CA-BC', 'DE', 'FR', 'AU', 'IN', 'JP', 'CN'].includes(code)) {
        for (const ids of Object.values(w.shown)) expect(ids, code).toEqual([]);
      }
      if (code === 'CA-ON' || code === 'BR' || code === 'ES') {
        expect(w.shown.broad.length).toBeGreaterThan(0);
        for (const o of w.bodies.broad.operators)
          expect([o.incentives.promo_text, o.incentives.promo_code, o.incentives.promo_terms]).toEqual(['', '', '']);
        for (const c of w.bodies.event.outcomes.flatMap((o) => o.comparison_pool))
          expect(c.promo_applied).toBeUndefined();
        for (const p of w.bodies.live.providers_pool) expect(p.incentives.coupon_value).toBe('');
      }
    },
  );

  it('a New Jersey visitor gets US offers with their terms; GB and BR visitors never see a US-dollar offer', async () => {
    const us = BroadWidgetPayload.parse((await json('/v1/widgets/broad?limit=50&fallback_geo=US-NJ')).body);
    const withOffer = us.operators.filter((o) => o.incentives.promo_code !== '');
    expect(withOffer.length).toBeGreaterThan(0);
    for (const o of withOffer) {
      expect(o.incentives.promo_terms, o.operator_name).not.toBe('');
      expect(o.incentives.promo_terms_url).toMatch(/^https:\/\//);
    }
    for (const country of ['GB', 'BR']) {
      const body = BroadWidgetPayload.parse((await json(`/v1/widgets/broad?limit=50&fallback_geo=${country}`)).body);
      for (const o of body.operators)
        expect(o.incentives.promo_text, `${country} ${o.operator_name}`).not.toContain('$');
    }
  });
});

const operatorKind = (id: string) => OPERATORS.find((op) => op.id === id)!.kind;

describe('the region chain: a trusted CDN header, else the IP database, else fallback_geo', () => {
  it('X-Forwarded-For of a US address is placed in its state by the IP database', async () => {
    const w = await allWidgets('fallback_geo=JP', { 'x-forwarded-for': US_ADDRESS }, proxied.base);
    expect(w.geos).toEqual(Array(4).fill('US'));
    expect(w.regions).toEqual(Array(4).fill(usAddressJurisdiction));
    for (const [widget, ids] of Object.entries(w.shown))
      for (const id of ids)
        expect(mayShow(id, usAddressJurisdiction, w.surfaces[widget as keyof typeof w.surfaces])).toBe(true);
  });

  it("a trusted CDN's geo headers win over the address; an unknown region shows the whole country's view", async () => {
    const ontario = await allWidgets(
      'fallback_geo=JP',
      { 'x-forwarded-for': US_ADDRESS, 'cf-ipcountry': 'CA', 'cf-region-code': 'ON' },
      proxied.base,
    );
    expect(ontario.regions).toEqual(Array(4).fill('CA-ON'));
    expect(ontario.shown.broad.sort()).toEqual(['betmgm', 'fanduel']);
    // Placed by the CDN's headers: a shared cache may keep each body, keyed on those headers.
    for (const cc of ontario.cacheControl)
      expect(cc).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect(ontario.vary).toEqual([
      'cf-ipcountry, cf-region-code, Accept-Language, X-Advertiser-Id, Accept-Encoding',
      ...Array(3).fill('cf-ipcountry, cf-region-code, X-Advertiser-Id, Accept-Encoding'),
    ]);
    const texas = await allWidgets('', { 'cf-ipcountry': 'US', 'cf-region-code': 'TX' }, proxied.base);
    expect(texas.regions).toEqual(Array(4).fill('US-TX'));
    const noRegion = await allWidgets('', { 'cf-ipcountry': 'US' }, proxied.base);
    expect(noRegion.geos).toEqual(Array(4).fill('US'));
    expect(noRegion.regions).toEqual(Array(4).fill(null));
    for (const ids of Object.values(noRegion.shown)) expect(ids).toEqual([]);
    // Tor (T1) places no one: the address decides
    const tor = await allWidgets('', { 'x-forwarded-for': US_ADDRESS, 'cf-ipcountry': 'T1' }, proxied.base);
    expect(tor.regions).toEqual(Array(4).fill(usAddressJurisdiction));
    // ...and no shared cache can key on an address: private again
    for (const cc of tor.cacheControl) expect(cc).toMatch(/^private, max-age=\d+$/);
  });

  it('the same headers from an untrusted peer are ignored (fallback_geo decides)', async () => {
    const w = await allWidgets('fallback_geo=CA-ON', { 'x-forwarded-for': US_ADDRESS, 'cf-ipcountry': 'GB' });
    expect(w.geos).toEqual(Array(4).fill('CA'));
    expect(w.regions).toEqual(Array(4).fill('CA-ON'));
  });
});

describe("advertiser endpoints take the viewer jurisdiction as geo, never the caller's", () => {
  it('widgets filter by geo, not by the calling server', async () => {
    const w = await allWidgets('geo=IN&fallback_geo=US-NJ', adv(), api.base, '/advertiser');
    expect(w.geos).toEqual(['IN', 'IN', 'IN', 'IN']);
    for (const ids of Object.values(w.shown)) expect(ids).toEqual([]);
    const nj = await allWidgets('geo=US-NJ', adv(), api.base, '/advertiser');
    expect(nj.regions).toEqual(Array(4).fill('US-NJ'));
    // an advertiser's answers are never for a shared cache, even behind the trusted CDN
    const viaCdn = await allWidgets('geo=US-NJ', { ...adv(), 'cf-ipcountry': 'GB' }, proxied.base, '/advertiser');
    expect(viaCdn.regions).toEqual(Array(4).fill('US-NJ'));
    for (const cc of viaCdn.cacheControl) expect(cc).toMatch(/^private, max-age=\d+$/);
    expect(nj.shown.sportsbook.length).toBeGreaterThan(3);
    // geo on a public route grants nothing: the public route resolves the caller
    const pub = await allWidgets('geo=JP&fallback_geo=US-NJ');
    expect(pub.regions).toEqual(Array(4).fill('US-NJ'));
  });

  it("without geo, or with geo=ZZ, the viewer is unknown: nothing that takes stakes, whatever the server's address", async () => {
    // the calling server sits behind a trusted proxy with a US address: that says nothing of its visitors
    for (const query of ['', 'geo=ZZ', 'fallback_geo=US-NJ']) {
      const w = await allWidgets(query, { ...adv(), 'x-forwarded-for': US_ADDRESS }, proxied.base, '/advertiser');
      expect(w.geos, query).toEqual(Array(4).fill('ZZ'));
      for (const ids of Object.values(w.shown)) expect(ids, query).toEqual([]);
      expect(w.bodies.broad.disclosures).toBeNull();
    }
  });

  it('the A/B comparison says whether A and B may be shown for the geo', async () => {
    const [slug] = await eventSlugs();
    const flags = async (geo: string | undefined) => {
      const body = SpecificEventPayload.parse(
        (await json(`/advertiser/v1/widgets/specific/${slug}${geo ? `?geo=${geo}` : ''}`, adv())).body,
      );
      expect(body.data.resolved_geo).toBe((geo ?? 'ZZ').slice(0, 2));
      return [body.data.operators.operatorA.allowed_in_geo, body.data.operators.operatorB.allowed_in_geo];
    };
    expect(await flags('US-NJ')).toEqual([true, false]);
    expect(await flags('US-NV')).toEqual([false, false]);
    expect(await flags('JP')).toEqual([false, false]);
    expect(await flags('BR')).toEqual([false, false]);
    expect(await flags(undefined)).toEqual([false, false]);
    for (const geo of ['XX', 'US-XX', 'us-nj']) {
      const bad = await fetch(`${api.base}/advertiser/v1/widgets/specific/${slug}?geo=${geo}`, { headers: adv() });
      expect(bad.status, geo).toBe(400);
      expect(((await bad.json()) as { errors: Array<{ param: string }> }).errors.map((e) => e.param)).toEqual(['geo']);
    }
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

describe('clicks land on the site licensed where the visitor is', () => {
  /** Where the click link of `operatorId` in the broad widget for `code` redirects. */
  async function landing(code: string, operatorId: string): Promise<URL> {
    const body = BroadWidgetPayload.parse((await json(`/v1/widgets/broad?limit=50&fallback_geo=${code}`)).body);
    const row = body.operators.find((o) => idByName.get(o.operator_name) === operatorId);
    expect(row, `${operatorId} in ${code}`).toBeDefined();
    const res = await fetch(row!.routing.web_url.replace(/^https?:\/\/[^/]+/, api.base), {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' },
    });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  it("BR, GB and CA-ON visitors reach that jurisdiction's licensed site", async () => {
    expect((await landing('BR', 'bet365')).host).toBe('www.bet365.bet.br');
    expect((await landing('GB', 'betmgm')).host).toBe('www.betmgm.co.uk');
    expect((await landing('GB', 'bet365')).host).toBe('www.bet365.com');
    expect((await landing('CA-ON', 'betmgm')).host).toBe('sports.on.betmgm.ca');
    expect((await landing('CA-ON', 'fanduel')).host).toBe('on.sportsbook.fanduel.ca');
    // a US state's visitor lands on the US site, with the operator's sub-ids
    const nj = await landing('US-NJ', 'draftkings');
    expect(nj.host).toBe('sportsbook.draftkings.com');
    expect(nj.searchParams.get('aff_sub4')).toBe('US-NJ');
  });
});

describe('WebSocket topics respect the subscriber jurisdiction (resolved at upgrade)', () => {
  async function firstFrame(
    url: string,
    topic: string,
    headers: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const ws = new WebSocket(url, { headers });
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const frame = new Promise<Record<string, unknown>>((resolve) =>
        ws.on('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)),
      );
      ws.send(JSON.stringify({ op: 'subscribe', topic }));
      return await frame;
    } finally {
      ws.close();
    }
  }
  const wsBase = (p: ServiceProcess) => `${p.base.replace('http', 'ws')}/v1/ws`;

  it('live-market and event topics carry the jurisdiction of the subscriber', async () => {
    const [slug] = await eventSlugs();
    for (const [url, headers, country] of [
      [`${wsBase(api)}?fallback_geo=IN`, {}, 'IN'],
      [`${wsBase(api)}?fallback_geo=US-NJ`, {}, 'US-NJ'],
      [`${wsBase(proxied)}?fallback_geo=JP`, { 'x-forwarded-for': US_ADDRESS }, usAddressJurisdiction],
      [`${wsBase(proxied)}?fallback_geo=JP`, { 'cf-ipcountry': 'CA', 'cf-region-code': 'ON' }, 'CA-ON'],
    ] as const) {
      const live = await firstFrame(url, 'live-market:BTC:15', headers);
      expect(live.topic).toBe('live-market:BTC:15');
      const l = LiveMarketPayload.parse(live.data);
      expect(codeOf(l.resolved_geo, l.resolved_region)).toBe(country);
      for (const p of l.providers_pool)
        expect(mayShow(p.operator_id, country, 'crypto'), `${country} ${p.operator_id}`).toBe(true);
      const event = await firstFrame(url, `event:${slug}`, headers);
      expect(event.topic).toBe(`event:${slug}`);
      const e = EventWidgetPayload.parse(event.data);
      expect(codeOf(e.resolved_geo, e.resolved_region)).toBe(country);
      const category = CatalogPayload.parse((await json('/v1/catalog')).body).events.find(
        (x) => x.slug === slug,
      )!.category;
      for (const c of e.outcomes.flatMap((o) => o.comparison_pool))
        expect(mayShow(c.operator_id, country, category)).toBe(true);
    }
  });

  it('refuses a bad fallback_geo at upgrade with a 400', async () => {
    const ws = new WebSocket(`${wsBase(api)}?fallback_geo=gb`);
    const status = await new Promise<number>((resolve) =>
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(400);
  });
});
