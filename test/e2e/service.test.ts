/**
 * End to end: the real worker and API processes against a real redis-server, called over HTTP.
 * Expected values are recomputed here from the snapshot the worker wrote to Redis, with the
 * test's own arithmetic, so the service's numbers are checked against source data.
 */
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, headerOf } from '../../bench/lib/http-capture.js';
import { catalogView } from '../../src/catalog/shown-operators.js';
import { afterFeePrice } from '../../src/catalog/fee-schedules.js';
import { operatorById } from '../../src/catalog/operators.js';
import type { Snapshot } from '../../src/store/schemas.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { clicksKey } from '../../src/tracking/click-counter.js';
import { LEAGUES, type MarketEvent } from '../../src/model/index.js';
import {
  EventListPayload,
  EventWidgetPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { fedSlug } from '../support/slugs.js';

// The simulator's Fed event today: its slug rolls with the meetings.
const FED = fedSlug();

const redis = useRedis();
let api: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;
const ADVERTISER = 'e2e-advertiser';

beforeAll(async () => {
  const env = testEnv(redis.url);
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'E2E', new Date());
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers, redirect: 'manual' });
const adv = (path: string) => get(path, { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey });
// From loopback the address gives no country: fallback_geo stands in. In New Jersey Kalshi,
// ForecastEx and the sportsbooks may be shown (Polymarket nowhere: docs/compliance.md).
const EVENT_GEO = 'US-NJ';
const BOOK_GEO = 'US-NJ';
// Exact cents first (0.575 * 100 is 57.4999... in floating point), then half-up to whole cents.
const cents = (price: number) => `${Math.min(99, Math.max(1, Math.round(Number((price * 100).toFixed(6)))))}¢`;

async function eventSlugs(): Promise<string[]> {
  const res = await adv('/advertiser/v1/widgets/events');
  expect(res.status).toBe(200);
  return EventListPayload.parse(await res.json()).data.events;
}

/** Reads the events snapshot from Redis until its changedAt equals `changedAt` (or gives up). */
async function eventsAt(changedAt: string): Promise<MarketEvent[] | undefined> {
  const snap = await readSnapshot(redis.client, 'events', 'all');
  return snap?.changedAt === changedAt ? snap.data.events : undefined;
}

describe('event widget', () => {
  it('serves every active event with the spec forms and prices from the snapshot', async () => {
    const slugs = await eventSlugs();
    expect(slugs.length).toBeGreaterThanOrEqual(12);
    let checkedAgainstSnapshot = 0;
    for (const slug of slugs) {
      const res = await get(`/v1/widgets/event?slug=${slug}&fallback_geo=${EVENT_GEO}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = EventWidgetPayload.parse(await res.json());
      expect(body.event_slug).toBe(slug);
      expect(body.resolved_region).toBe(EVENT_GEO);
      expect(body.outcomes.length).toBeGreaterThanOrEqual(1);
      const events = await eventsAt(body.last_verified_timestamp);
      if (!events) continue; // a refresh landed in between; other slugs will be checked
      const source = events.find((e) => e.slug === slug)!;
      // Volume-weighted mid ((bid + ask) / 2, or the ask without a bid) per outcome over the operators
      // shown, then normalised over the event's outcomes when they are mutually exclusive: an outcome
      // no operator here may show still takes its share, estimated from every catalog venue.
      const weighted = new Map<string, number>();
      for (const o of source.outcomes) {
        const catalog = o.quotes.filter((q) => operatorById(q.operatorId));
        const allowedHere = catalog.filter((q) => catalogView(EVENT_GEO).operatorOn(q.operatorId, source.category));
        const basis = allowedHere.length > 0 ? allowedHere : catalog;
        if (basis.length === 0) continue;
        const mid = (q: (typeof basis)[number]) => (q.yesBid !== undefined ? (q.yesBid + q.yesPrice) / 2 : q.yesPrice);
        // The simulator always states its volumes.
        const volume = basis.reduce((s, q) => s + q.volume24hUsd!, 0);
        weighted.set(o.name, basis.reduce((s, q) => s + mid(q) * q.volume24hUsd!, 0) / volume);
      }
      const total = source.exclusive ? [...weighted.values()].reduce((s, p) => s + p, 0) : 1;
      for (const outcome of body.outcomes) {
        const src = source.outcomes.find((o) => o.name === outcome.outcome_name)!;
        const known = src.quotes.filter(
          (q) => operatorById(q.operatorId) && catalogView(EVENT_GEO).operatorOn(q.operatorId, source.category),
        );
        // Shown to one decimal: within half a tenth of the exact value.
        expect(
          Math.abs(outcome.aggregated_probability_pct - (weighted.get(outcome.outcome_name)! / total) * 100),
        ).toBeLessThanOrEqual(0.05 + 1e-9);
        // Prices and best odds after each venue's taker fee (the event's category picks the rate).
        const afterFee = (q: (typeof known)[number]) => afterFeePrice(q.operatorId, source.category, q.yesPrice);
        // Best odds are judged on the prices as shown: every operator showing the lowest figure.
        const shownCents = (q: (typeof known)[number]) => Number.parseInt(cents(afterFee(q)), 10);
        const minShown = Math.min(...known.map(shownCents));
        for (const entry of outcome.comparison_pool) {
          const quote = known.find((q) => q.operatorId === entry.operator_id)!;
          expect(entry.contract_price).toBe(cents(afterFee(quote)));
          expect(entry.is_best_odds).toBe(shownCents(quote) === minShown);
          expect(entry.operator_name).toBe(operatorById(entry.operator_id)!.name);
          expect(entry.deep_link.startsWith(`http://localhost:${api.port}/v1/click?`)).toBe(true);
        }
      }
      checkedAgainstSnapshot++;
    }
    expect(checkedAgainstSnapshot).toBeGreaterThan(0);
  });

  it('formats prices as implied_pct and decimal', async () => {
    const [slug] = await eventSlugs();
    const pct = EventWidgetPayload.parse(
      await (await get(`/v1/widgets/event?slug=${slug}&display_format=implied_pct`)).json(),
    );
    const dec = EventWidgetPayload.parse(
      await (await get(`/v1/widgets/event?slug=${slug}&display_format=decimal`)).json(),
    );
    for (const e of pct.outcomes.flatMap((o) => o.comparison_pool)) expect(e.contract_price).toMatch(/^\d{1,2}\.\d%$/);
    for (const e of dec.outcomes.flatMap((o) => o.comparison_pool)) expect(e.contract_price).toMatch(/^\d+\.\d{2}$/);
  });

  it('agrees with the advertiser comparison on every shared price and volume', async () => {
    let compared = 0;
    for (const slug of await eventSlugs()) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const [w, s] = await Promise.all([
          get(`/v1/widgets/event?slug=${slug}&fallback_geo=${EVENT_GEO}`),
          adv(`/advertiser/v1/widgets/specific/${slug}?geo=${EVENT_GEO}`),
        ]);
        const widget = EventWidgetPayload.parse(await w.json());
        const specific = SpecificEventPayload.parse(await s.json());
        if (widget.last_verified_timestamp !== specific.data.event.last_verified_timestamp) continue; // refresh between
        const { operatorA, operatorB } = specific.data.operators;
        expect(specific.data.resolved_region).toBe(EVENT_GEO);
        // the comparison keeps both operators' data; the widget shows only the one allowed here
        expect([operatorA.allowed_in_geo, operatorB.allowed_in_geo]).toEqual([true, false]);
        for (const o of specific.data.outcomes) {
          const pool = widget.outcomes.find((x) => x.outcome_name === o.name)!.comparison_pool;
          const a = pool.find((p) => p.operator_id === operatorA.id)!;
          expect(pool.find((p) => p.operator_id === operatorB.id)).toBeUndefined();
          expect(a.contract_price).toBe(cents(o.operatorAPrice));
          expect(o.spreadCents).toBeCloseTo(Math.abs(o.operatorAPrice - o.operatorBPrice) * 100, 6);
          expect(a.contract_volume).toBe(compactUsd(o.operatorAVolume24h!));
          compared++;
        }
        break;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('refreshes: the snapshot version and some prices change within a few seconds', async () => {
    const first = (await readSnapshot(redis.client, 'events', 'all'))!;
    const deadline = Date.now() + 8_000;
    let next = first;
    while (Date.now() < deadline && next.version === first.version) {
      await new Promise((r) => setTimeout(r, 250));
      next = (await readSnapshot(redis.client, 'events', 'all'))!;
    }
    expect(next.version).toBeGreaterThan(first.version);
    const prices = (s: typeof first) =>
      s.data.events.flatMap((e) => e.outcomes.flatMap((o) => o.quotes.map((q) => q.yesPrice)));
    expect(prices(next)).not.toEqual(prices(first));
    // The API picks the change up without waiting on Redis per request.
    await expect
      .poll(
        async () => {
          const body = EventWidgetPayload.parse(
            await (await get(`/v1/widgets/event?slug=${first.data.events[0]!.slug}`)).json(),
          );
          return Date.parse(body.last_verified_timestamp) >= Date.parse(next.changedAt);
        },
        { timeout: 3_000, interval: 100 },
      )
      .toBe(true);
  });
});

describe('sportsbook widget', () => {
  it.each(LEAGUES)('%s: next matchup, odds from the snapshot, team analytics', async (league) => {
    // The worker refreshes every second here: a widget asked for between two reads of one snapshot
    // version was built from it (a busy machine can let a refresh fall between the two otherwise).
    let res: Response;
    let snap: Snapshot<'sportsbook'>;
    for (let tries = 1; ; tries++) {
      const before = (await readSnapshot(redis.client, 'sportsbook', league))!;
      res = await get(`/v1/widgets/sportsbook?league=${league}&fallback_geo=${BOOK_GEO}`);
      snap = (await readSnapshot(redis.client, 'sportsbook', league))!;
      if (snap.version === before.version || tries === 10) break;
      await res.arrayBuffer();
    }
    expect(res.status).toBe(200);
    const body = SportsbookWidgetPayload.parse(await res.json());
    expect(body.resolved_region).toBe(BOOK_GEO);
    const matchup = snap.data.upcoming.find((m) => m.id === body.match_meta.event_id);
    if (!matchup) return; // refreshed in between: forms were still checked by the schema
    // Football adds the W-D-L record beside the spec's W-L.
    const keys = league === 'EPL' ? ['_ats_ou', '_record', '_record_wdl'] : ['_ats_ou', '_record'];
    expect(Object.keys(body.team_analytics).sort()).toEqual(
      [matchup.awayCode, matchup.homeCode].flatMap((c) => keys.map((k) => `${c.toLowerCase()}${k}`)).sort(),
    );
    // Record recomputed from the finished games.
    const code = matchup.homeCode;
    let w = 0;
    let l = 0;
    for (const g of snap.data.finished) {
      if (g.homeCode !== code && g.awayCode !== code) continue;
      const [mine, theirs] = g.homeCode === code ? [g.homeScore, g.awayScore] : [g.awayScore, g.homeScore];
      if (mine > theirs) w++;
      else if (mine < theirs) l++;
    }
    expect(body.team_analytics[`${code.toLowerCase()}_record`]).toBe(`${w}-${l}`);
    // Every book quoting the game that may be shown here, in the snapshot's order (how many varies by game).
    const names = body.odds_matrix.operators.map((o) => o.name);
    const shownHere = matchup.books.filter(
      (b) => operatorById(b.operatorId) && catalogView(BOOK_GEO).operatorOn(b.operatorId, 'sports'),
    );
    expect(names).toEqual(shownHere.map((b) => operatorById(b.operatorId)!.name));
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names).toContain(operatorById('kalshi')!.name);
    // Polymarket quotes the games too, but may not be shown in the US
    expect(names).not.toContain(operatorById('polymarket')!.name);
    // Exchange rows hold exact after-fee odds (+425.21); the widget shows them rounded half away from zero.
    const shown = (a: number) => Math.sign(a) * Math.round(Math.abs(a));
    const bookOf = (name: string) => matchup.books.find((b) => operatorById(b.operatorId)!.name === name)!;
    for (const op of body.odds_matrix.operators) {
      const book = bookOf(op.name);
      if (book.homeMoneyline !== undefined) expect(Number(op.lines.home_moneyline)).toBe(shown(book.homeMoneyline));
      if (book.drawMoneyline !== undefined) expect(Number(op.lines.draw_moneyline)).toBe(shown(book.drawMoneyline));
      expect(op.lines.draw_moneyline === undefined).toBe(league !== 'EPL');
      if (book.homeSpread) expect(Number(op.lines.home_spread!.line)).toBe(book.homeSpread.point);
    }
    // Moneyline best odds: every operator paying the most as shown (American odds here): an exchange
    // row at +425.21 and a book at +425 both read +425, and both lead.
    const payout = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);
    for (const [key, side] of [
      ['home_moneyline', 'homeMoneyline'],
      ['away_moneyline', 'awayMoneyline'],
      ['draw_moneyline', 'drawMoneyline'],
    ] as const) {
      const offered = body.odds_matrix.operators.filter((o) => bookOf(o.name)[side] !== undefined);
      const best = Math.max(...offered.map((o) => payout(shown(bookOf(o.name)[side]!))));
      const expected = offered
        .filter((o) => Math.abs(payout(shown(bookOf(o.name)[side]!)) - best) <= 1e-9)
        .map((o) => o.name);
      expect(
        body.odds_matrix.operators.filter((o) => o.best_odds.includes(key)).map((o) => o.name),
        key,
      ).toEqual(expected);
    }
    // Every line key that any operator offers has at least one leader.
    const leaders = new Set<string>(body.odds_matrix.operators.flatMap((o) => o.best_odds));
    const offeredKeys = new Set(body.odds_matrix.operators.flatMap((o) => Object.keys(o.lines)));
    expect(offeredKeys.has('home_moneyline')).toBe(true);
    expect([...offeredKeys].filter((k) => !leaders.has(k))).toEqual([]);
  });

  it('team_context picks the next matchup of the named team, by alias, any case', async () => {
    const snap = (await readSnapshot(redis.client, 'sportsbook', 'NBA'))!;
    const later = snap.data.upcoming.at(-1)!;
    const team = snap.data.teams.find((t) => t.code === later.homeCode)!;
    const alias = (team.aliases.at(-1) ?? team.name).toUpperCase();
    const body = SportsbookWidgetPayload.parse(
      await (await get(`/v1/widgets/sportsbook?league=NBA&team_context=${encodeURIComponent(alias)}`)).json(),
    );
    expect(body.match_meta.matchup).toContain(team.name);
  });
});

describe('advertiser endpoints', () => {
  it('limit returns the outcomes with the highest combined volume first', async () => {
    for (const slug of await eventSlugs()) {
      const all = SpecificEventPayload.parse(await (await adv(`/advertiser/v1/widgets/specific/${slug}`)).json());
      if (all.data.outcomes.length < 3) continue;
      const one = SpecificEventPayload.parse(
        await (await adv(`/advertiser/v1/widgets/specific/${slug}?limit=1`)).json(),
      );
      if (one.data.event.last_verified_timestamp !== all.data.event.last_verified_timestamp) continue;
      const top = Math.max(...all.data.outcomes.map((o) => o.operatorAVolume24h! + o.operatorBVolume24h!));
      expect(one.data.outcomes).toHaveLength(1);
      expect(one.data.outcomes[0]!.operatorAVolume24h! + one.data.outcomes[0]!.operatorBVolume24h!).toBe(top);
      return;
    }
    throw new Error('no event with 3+ shared outcomes to test limit on');
  });

  it('refuses missing and wrong credentials at once, revoked ones within a second', async () => {
    const path = '/advertiser/v1/widgets/events';
    const missing = await get(path);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { code: string }).code).toBe('missing_credentials');
    const wrong = await get(path, { 'x-advertiser-id': ADVERTISER, 'x-api-key': `pwk_${'A'.repeat(43)}` });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('invalid_credentials');

    const keys = advertiserKeys(redis.client);
    const temp = await keys.create('e2e-temp', 'temp', new Date());
    expect((await get(path, { 'x-advertiser-id': 'e2e-temp', 'x-api-key': temp })).status).toBe(200);
    await keys.revoke('e2e-temp', new Date());
    // successful checks are cached; the revocation notice reaches every process within a second
    await expect
      .poll(async () => (await get(path, { 'x-advertiser-id': 'e2e-temp', 'x-api-key': temp })).status, {
        timeout: 1_000,
        interval: 20,
      })
      .toBe(401);
  });

  it('serves the widget endpoints authenticated under /advertiser too', async () => {
    const [slug] = await eventSlugs();
    expect((await adv(`/advertiser/v1/widgets/event?slug=${slug}`)).status).toBe(200);
    expect((await get(`/advertiser/v1/widgets/event?slug=${slug}`)).status).toBe(401);
    expect((await adv('/advertiser/v1/widgets/sportsbook?league=NFL')).status).toBe(200);
  });
});

describe('bad input gets a problem response, never a 500', () => {
  const cases: Array<[string, string, number, string, Record<string, string>?]> = [
    ['GET', '/v1/widgets/sportsbook', 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/sportsbook?league=MLB', 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/sportsbook?league=nba', 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/sportsbook?league=NBA&team_context=zzzz-no-such-team', 404, 'not_found'],
    ['GET', '/v1/widgets/event', 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/event?slug=Not%20A%20Slug', 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/event?slug=no-such-event', 404, 'not_found'],
    ['GET', `/v1/widgets/event?slug=${FED}&display_format=fractional`, 400, 'invalid_parameter'],
    ['GET', '/v1/widgets/event?slug=x&advertiser_id=%00', 400, 'invalid_parameter'],
    ['GET', '/advertiser/v1/widgets/specific/no-such-event', 404, 'not_found', { auth: '1' }],
    ['GET', '/advertiser/v1/widgets/specific/%E0%A4%A', 400, 'invalid_parameter', { auth: '1' }],
    ['GET', `/advertiser/v1/widgets/specific/${FED}?limit=0`, 400, 'invalid_parameter', { auth: '1' }],
    ['GET', `/advertiser/v1/widgets/specific/${FED}?limit=101`, 400, 'invalid_parameter', { auth: '1' }],
    ['GET', `/advertiser/v1/widgets/specific/${FED}?limit=2.5`, 400, 'invalid_parameter', { auth: '1' }],
    ['GET', `/advertiser/v1/widgets/specific/${FED}?limit=abc`, 400, 'invalid_parameter', { auth: '1' }],
    ['GET', '/v1/nothing-here', 404, 'not_found'],
    ['GET', '/v1/click?o=kalshi&s=forged', 403, 'invalid_link'],
    ['POST', '/v1/widgets/event?slug=x', 405, 'method_not_allowed'],
    ['DELETE', '/advertiser/v1/widgets/events', 405, 'method_not_allowed'],
  ];
  it.each(cases)('%s %s → %i %s', async (method, path, status, code, opts) => {
    const headers: Record<string, string> = opts?.auth ? { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey } : {};
    const res = await fetch(`${api.base}${path}`, { method, headers, redirect: 'manual' });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as {
      type: string;
      title: string;
      status: number;
      detail: string;
      code: string;
      errors: unknown[];
    };
    expect(body).toMatchObject({ status, code });
    expect(typeof body.title).toBe('string');
    expect(typeof body.detail).toBe('string');
    expect(Array.isArray(body.errors)).toBe(true);
  });

  it('error replies carry CORS headers, so a browser widget can read why it failed', async () => {
    const res = await get('/v1/widgets/event?slug=no-such-event', { origin: 'https://publisher.example' });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('names the bad parameter', async () => {
    const body = (await (await get('/v1/widgets/sportsbook?league=XFL')).json()) as {
      errors: Array<{ param: string; message: string }>;
    };
    expect(body.errors).toEqual([{ param: 'league', message: 'must be one of NCAAB, NBA, NFL, EPL' }]);
  });
});

describe('HTTP behaviour', () => {
  it('ETag and 304, Cache-Control, CORS, HEAD and preflight', async () => {
    const [slug] = await eventSlugs();
    const path = `/v1/widgets/event?slug=${slug}`;
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    // The body depends on the visitor's country, which a shared cache cannot see.
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    // The x-advertiser-id header changes the links.
    expect(first.headers.get('vary')).toMatch(/x-advertiser-id/i);
    const again = await get(path, { 'if-none-match': etag });
    // A refresh may have replaced the body in between; then the ETag differs and it is a 200.
    expect(again.status === 304 || again.headers.get('etag') !== etag).toBe(true);
    if (again.status === 304) {
      // No Content-Length: a 304's would have to equal the 200's, and 0 makes caches drop the body.
      expect(again.headers.get('content-length')).toBeNull();
      expect(await again.text()).toBe('');
    }
    const head = await fetch(`${api.base}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const pre = await fetch(`${api.base}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://publisher.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it("writes a well-formed HTTP/1.1 head on the wire: a prepared one in one piece, then the request id, then uWS's own", async () => {
    const path = `/v1/widgets/sportsbook?league=${LEAGUES[0]}&fallback_geo=${BOOK_GEO}`;
    // The worker refreshes every second: a body replaced between the two requests answers the
    // second with a 200, so the pair is asked again (bounded) until the body held still.
    let ok = await capture(api.port, path, { 'Accept-Encoding': 'br' });
    let notModified = await capture(api.port, path, {
      'Accept-Encoding': 'br',
      'If-None-Match': headerOf(ok, 'etag')!,
    });
    for (let tries = 1; notModified.status === '200 OK' && tries < 20; tries++) {
      ok = notModified;
      notModified = await capture(api.port, path, { 'Accept-Encoding': 'br', 'If-None-Match': headerOf(ok, 'etag')! });
    }
    for (const [res, status] of [
      [ok, '200 OK'],
      [notModified, '304 Not Modified'],
    ] as const) {
      expect(res.status).toBe(status);
      const names = res.headers.map(([name]) => name.toLowerCase());
      // Every line is one "name: value" header, each name once.
      for (const [name, value] of res.headers) {
        expect(name).toMatch(/^[a-z0-9-]+$/i);
        expect(value).not.toMatch(/[\r\n]/);
      }
      expect(new Set(names).size).toBe(names.length);
      expect(names).toEqual(
        expect.arrayContaining(['etag', 'last-modified', 'cache-control', 'vary', 'x-request-id', 'date']),
      );
    }
    expect(headerOf(ok, 'content-encoding')).toBe('br');
    expect(Number(headerOf(ok, 'content-length'))).toBe(ok.body.length);
    expect(SportsbookWidgetPayload.parse(JSON.parse(brotliDecompressSync(ok.body).toString())).league).toBe(LEAGUES[0]);
    expect(headerOf(notModified, 'content-length')).toBeUndefined();
    expect(headerOf(notModified, 'etag')).toBe(headerOf(ok, 'etag'));
  });

  it('a deep link counts the click and lands on the contract page; an altered one is refused', async () => {
    const [slug] = await eventSlugs();
    const body = EventWidgetPayload.parse(
      await (await get(`/v1/widgets/event?slug=${slug}&fallback_geo=${EVENT_GEO}`)).json(),
    );
    const entry = body.outcomes[0]!.comparison_pool[0]!;
    const link = new URL(entry.deep_link);
    // Followed by a person's browser: an HTTP library's click (node's fetch says "node") is not counted.
    const res = await get(`${link.pathname}${link.search}`, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0',
    });
    expect(res.status).toBe(302);
    const events = (await readSnapshot(redis.client, 'events', 'all'))!.data.events;
    const quote = events
      .find((e) => e.slug === slug)!
      .outcomes.flatMap((o) => o.quotes)
      .find((q) => q.operatorId === entry.operator_id)!;
    expect(new URL(res.headers.get('location')!).hostname).toBe(new URL(quote.marketUrl).hostname);
    const day = new Date().toISOString().slice(0, 10);
    // buffered in memory, written about once a second
    await expect
      .poll(() => redis.client.pfcount(clicksKey(entry.operator_id, day)), { timeout: 5_000, interval: 100 })
      .toBeGreaterThanOrEqual(1);

    const tampered = link.search.replace(/([?&]o=)[^&]+/, '$1polymarket');
    const refused = await get(`${link.pathname}${tampered === link.search ? `${link.search}x` : tampered}`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('health and readiness', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { snapshots: Array<{ kind: string; stale: boolean }> };
    expect(body.snapshots).toHaveLength(7); // events, metrics, fx, four leagues
  });
});

/** The test's own compact-money formatter for USD (docs/contract.md: $2.4M, $850K, $950.00). */
function compactUsd(n: number): string {
  const twoDp = Math.round(n * 100) / 100;
  if (twoDp < 1000) return `$${twoDp.toFixed(2)}`;
  const suffixes = ['K', 'M', 'B'];
  let v = n / 1000;
  let i = 0;
  while (Math.round(v * 10) / 10 >= 1000 && i < suffixes.length - 1) {
    v /= 1000;
    i++;
  }
  return `$${Math.round(v * 10) / 10}${suffixes[i]}`;
}
