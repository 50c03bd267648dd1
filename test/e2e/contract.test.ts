/**
 * The published contract against the real service: /v1/openapi.json is served, valid and the
 * document the tests check every answer against; every documented path is routed; /v1/catalog
 * lists what the widgets then serve, with public caching and a 304.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LEAGUES } from '../../src/model/index.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { CatalogPayload, EventWidgetPayload, SportsbookWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { frameViolation, openApiDocument } from '../support/contract.js';
import { useRedis } from '../support/redis.js';
import { openWebSocket, refusedUpgrade } from '../support/ws-client.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let api: ServiceProcess;
let worker: ServiceProcess;

beforeAll(async () => {
  const env = testEnv(redis.url);
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers, redirect: 'manual' });

describe('/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, the one the tests check answers against, cacheable with an ETag', async () => {
    const res = await get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    const served = (await res.json()) as Record<string, unknown>;
    expect((await new Validator().validate(served as never)).valid).toBe(true);
    expect(served).toEqual(openApiDocument(`http://localhost:${api.port}`));
    const etag = res.headers.get('etag')!;
    const again = await get('/v1/openapi.json', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('documents only paths the service routes', async () => {
    const doc = openApiDocument();
    for (const path of Object.keys(doc.paths)) {
      const res = await get(path.replace('{event_slug}', 'no-such-event'));
      const body = res.headers.get('content-type')?.startsWith('application/problem+json')
        ? ((await res.json()) as { detail: string })
        : undefined;
      expect(body?.detail ?? '', path).not.toMatch(/^No route/);
    }
  });
});

describe('/v1/ws', () => {
  it('answers a plain GET with 426 and how to open it, as the document says', async () => {
    const res = await get('/v1/ws');
    expect(res.status).toBe(426);
    expect(res.headers.get('upgrade')).toBe('websocket');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('upgrade_required');
    expect(body.detail).toMatch(/WebSocket client/);
    expect(Object.keys((openApiDocument().paths['/v1/ws'] as { get: { responses: object } }).get.responses)).toContain(
      '426',
    );
    // With a trailing slash, as every path: refused the same way, and opened by a WebSocket client.
    expect((await get('/v1/ws/')).status).toBe(426);
    const ws = await openWebSocket(`${api.base.replace('http', 'ws')}/v1/ws/?fallback_geo=US`);
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it("refuses a bad upgrade with a problem under the caller's request id, or one of ours", async () => {
    const url = `${api.base.replace('http', 'ws')}/v1/ws?fallback_geo=xx`;
    const theirs = await refusedUpgrade(url, { 'x-request-id': 'widget-42' });
    expect(theirs.status).toBe(400);
    expect(theirs.headers['x-request-id']).toBe('widget-42');
    expect(JSON.parse(theirs.body)).toMatchObject({
      code: 'invalid_parameter',
      errors: [{ param: 'fallback_geo' }],
      request_id: 'widget-42',
    });
    const ours = await refusedUpgrade(url, { 'x-request-id': 'not valid!' });
    const id = ours.headers['x-request-id'];
    expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(JSON.parse(ours.body).request_id).toBe(id);
  });

  it('sends data and error frames the document describes', async () => {
    const ws = new WebSocket(`${api.base.replace('http', 'ws')}/v1/ws?fallback_geo=US`);
    const frames: unknown[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const slug = CatalogPayload.parse(await (await get('/v1/catalog')).json()).events[0]!.slug;
    for (const msg of [
      { op: 'subscribe', topic: 'live-market:BTC:5' },
      { op: 'subscribe', topic: `event:${slug}` },
      { op: 'subscribe', topic: 'nope' },
    ]) {
      ws.send(JSON.stringify(msg));
    }
    ws.send('not json');
    await expect.poll(() => frames.length, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(4);
    ws.close();
    expect(frames.map(frameViolation)).toEqual(frames.map(() => undefined));
    expect(
      frames
        .filter((f) => (f as { op?: string }).op === 'error')
        .map((f) => (f as { code: string }).code)
        .sort(),
    ).toEqual(['bad_request', 'unknown_topic']);
    // And the checker refuses what the document does not describe.
    expect(frameViolation({ topic: 'live-market:BTC:5', data: { widget_class: 'live-market' } })).toMatch(
      /does not match/,
    );
  });
});

describe('/v1/catalog', () => {
  it('lists the open events and upcoming matchups of the snapshots, each of which its widget serves', async () => {
    const res = await get('/v1/catalog');
    expect(res.status).toBe(200);
    const catalog = CatalogPayload.parse(await res.json());
    const events = (await readSnapshot(redis.client, 'events', 'all'))!.data.events;
    const open = events.filter((e) => Date.parse(e.closesAt) > Date.now());
    expect(catalog.events.map((e) => e.slug)).toEqual(open.map((e) => e.slug));
    expect(catalog.events.map((e) => e.outcomes)).toEqual(open.map((e) => e.outcomes.map((o) => o.name)));
    expect(catalog.leagues.map((l) => l.league)).toEqual([...LEAGUES]);
    const first = catalog.events[0]!;
    const widget = EventWidgetPayload.parse(
      await (await get(`/v1/widgets/event?slug=${first.slug}&fallback_geo=US`)).json(),
    );
    expect(widget.event_question).toBe(first.question);
    for (const { league, upcoming } of catalog.leagues) {
      const snap = (await readSnapshot(redis.client, 'sportsbook', league))!.data;
      expect(upcoming.map((m) => m.event_id)).toEqual(
        snap.upcoming
          .filter((m) => Date.parse(m.scheduledTime) > Date.now())
          .sort((a, b) => a.scheduledTime.localeCompare(b.scheduledTime))
          .map((m) => m.id),
      );
      if (!upcoming[0]) continue;
      const book = SportsbookWidgetPayload.parse(
        await (
          await get(`/v1/widgets/sportsbook?league=${league}&team_context=${upcoming[0].home.code}&fallback_geo=US`)
        ).json(),
      );
      expect(book.match_meta.event_id).toBe(upcoming[0].event_id);
    }
    expect(catalog.live_markets.map((m) => m.asset)).toEqual(['BTC', 'ETH', 'SOL']);
    for (const { asset, horizon_minutes } of catalog.live_markets) {
      for (const h of horizon_minutes)
        expect((await get(`/v1/widgets/live-market?asset=${asset}&horizon_minutes=${h}`)).status).toBe(200);
    }
  });

  it('is publicly cacheable, the same for every caller, and 304 on a matching If-None-Match', async () => {
    // The workers refresh every second here, and a busy machine can let a refresh fall between two
    // requests: take them again until both carry one ETag (if the body varied by caller, none would).
    let a: Response;
    let b: Response;
    for (let tries = 1; ; tries++) {
      a = await get('/v1/catalog?fallback_geo=GB');
      b = await get('/v1/catalog', { 'x-advertiser-id': 'someone', 'accept-language': 'de' });
      if (a.headers.get('etag') === b.headers.get('etag') || tries === 10) break;
      await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    }
    expect(a.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    // Nothing about the caller; only the content coding varies.
    expect(a.headers.get('vary')).toBe('Accept-Encoding');
    expect(await a.text()).toBe(await b.text());
    const etag = a.headers.get('etag')!;
    expect(b.headers.get('etag')).toBe(etag);
    const again = await get('/v1/catalog', { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });
});
