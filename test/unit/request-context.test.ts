/**
 * The request's context (src/http/context.ts) and the stages that fill it: the query parsed once
 * by the route's schema, the viewer resolved once by the audience's stage (src/http/audience.ts),
 * and the routes declared once with their OpenAPI operations (src/http/api-routes.ts).
 */
import { describe, expect, it } from 'vitest';
import { GeoResolver, type GeoRequest } from '../../src/geo/resolver.js';
import { ROUTES } from '../../src/http/api-routes.js';
import { advertiserViewer, publicViewer } from '../../src/http/audience.js';
import type { RequestContext } from '../../src/http/context.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { EventWidgetQuery, SpecificEventQuery } from '../../src/http/params.js';
import { NO_QUERY, withContext } from '../../src/http/pipeline.js';
import { BroadWidgetQuery } from '../../src/http/routes/broad.js';
import { CONTRACT_VERSION } from '../../src/http/routes/openapi.js';
import { Problem } from '../../src/model/problem.js';
import type { Reply, Request, RequestHeaders } from '../../src/transport/types.js';

// A public address the table places in Germany; nothing else is placed.
const GERMAN = '81.2.69.160';
const resolver = new GeoResolver({ locate: (ip) => (ip.text === GERMAN ? { country: 'DE' } : undefined) }, [], 'GB');

/** The resolver, counting its calls. */
function counting() {
  const geo = {
    calls: 0,
    resolve(req: GeoRequest, fallback?: string) {
      geo.calls++;
      return resolver.resolve(req, fallback);
    },
  };
  return geo;
}

const request = (query: string, headers: RequestHeaders = {}, remoteAddress = GERMAN): Request => ({
  method: 'GET',
  path: '/v1/widgets/broad',
  query,
  headers,
  remoteAddress,
});

const OK: Reply = { status: 200 };
const REGISTERED = new Set(['acme']);
const isRegistered = (id: string) => REGISTERED.has(id);

/** Runs `req` through the context and `viewer` stages to a route that keeps its context. */
function viewed(viewer: typeof advertiserViewer, req: Request) {
  let seen: RequestContext<{ readonly geo?: string | undefined }> | undefined;
  const handler = withContext(BroadWidgetQuery)(
    viewer((ctx) => {
      seen = ctx;
      return OK;
    }),
  );
  expect(handler(req)).toBe(OK);
  return seen!;
}

describe('the public viewer stage', () => {
  it('resolves the viewer once per request, however often the route reads it', () => {
    const geo = counting();
    const stage = publicViewer(geo, isRegistered);
    let reads = 0;
    const handler = withContext(EventWidgetQuery)(
      stage((ctx) => {
        for (let i = 0; i < 3; i++) reads += ctx.viewer.geo.jurisdiction === 'DE' ? 1 : 0;
        return OK;
      }),
    );
    handler(request('slug=fed-march'));
    expect(geo.calls).toBe(1);
    expect(reads).toBe(3);
  });

  it('places the viewer by its address, else by fallback_geo, and ignores the geo parameter', () => {
    const placed = viewed(publicViewer(resolver, isRegistered), request('geo=US-NJ&fallback_geo=FR'));
    expect(placed.viewer.geo).toEqual({ jurisdiction: 'DE', source: 'ip' });
    const unplaced = viewed(publicViewer(resolver, isRegistered), request('geo=US-NJ&fallback_geo=FR', {}, '10.0.0.1'));
    expect(unplaced.viewer.geo).toEqual({ jurisdiction: 'FR', source: 'fallback_geo' });
    expect(placed.viewer.authenticated).toBe(false);
  });

  it('credits a registered advertiser only, from the query or the header', () => {
    const stage = publicViewer(resolver, isRegistered);
    expect(viewed(stage, request('advertiser_id=acme')).viewer.advertiserId).toBe('acme');
    expect(viewed(stage, request('', { 'x-advertiser-id': 'acme' })).viewer.advertiserId).toBe('acme');
    expect(viewed(stage, request('advertiser_id=someone-else')).viewer.advertiserId).toBeUndefined();
    expect(() => viewed(stage, request('', { 'x-advertiser-id': 'NOT VALID' }))).toThrow(Problem);
  });

  it('carries the currency asked for, and the locale from Accept-Language, else from the jurisdiction', () => {
    const stage = publicViewer(resolver, isRegistered);
    const asked = viewed(stage, request('currency=EUR', { 'accept-language': 'fr-CH, en;q=0.5' })).viewer;
    expect(asked.currency).toBe('EUR');
    expect(asked.locale).toBe('fr');
    const plain = viewed(stage, request('')).viewer;
    expect(plain.currency).toBeUndefined();
    expect(plain.locale).toBe('de');
  });
});

describe('the advertiser viewer stage', () => {
  it("places the viewer by its geo only (the caller's address is the advertiser's server) and credits the advertiser", () => {
    const nj = viewed(advertiserViewer, request('geo=US-NJ', { 'x-advertiser-id': 'acme' })).viewer;
    expect(nj.geo).toEqual({ jurisdiction: 'US-NJ', source: 'fallback_geo' });
    expect(nj.advertiserId).toBe('acme');
    expect(nj.authenticated).toBe(true);
    const nowhere = viewed(advertiserViewer, request('', { 'x-advertiser-id': 'acme' })).viewer;
    expect(nowhere.geo).toEqual({ jurisdiction: 'ZZ', source: 'unknown' });
  });
});

describe('the context stage', () => {
  it('hands the route its query as the schema parsed it, and a 400 problem for a bad one before the route runs', () => {
    let limit: number | undefined;
    const handler = withContext(SpecificEventQuery)((ctx) => {
      limit = ctx.query.limit;
      return OK;
    });
    handler(request('limit=7'));
    expect(limit).toBe(7);
    let ran = false;
    const refusing = withContext(SpecificEventQuery)(() => {
      ran = true;
      return OK;
    });
    expect(() => refusing(request('limit=0'))).toThrow(expect.objectContaining({ status: 400 }));
    expect(ran).toBe(false);
  });

  it('gives a route without a query schema the one empty query', () => {
    let query: unknown;
    withContext(undefined)((ctx) => {
      query = ctx.query;
      return OK;
    })(request('anything=1'));
    expect(query).toBe(NO_QUERY);
  });
});

describe('the declared routes', () => {
  const doc = buildOpenApi({ publicBaseUrl: 'http://localhost:8080', production: false }, CONTRACT_VERSION) as {
    paths: Record<string, unknown>;
  };

  it('are the paths of the OpenAPI document, each under its own path, in the same order', () => {
    expect(Object.keys(doc.paths)).toEqual(Object.keys(ROUTES));
    for (const [path, route] of Object.entries(ROUTES)) expect(route.path).toBe(path);
  });

  it('each carry the operation the document has at their path', () => {
    for (const route of Object.values(ROUTES)) expect(doc.paths[route.path]).toEqual(route.openapi());
  });

  it('document the query parameters the route parses', () => {
    for (const route of Object.values(ROUTES)) {
      if (!('query' in route) || !route.query) continue;
      const documented = (
        route.openapi() as { get: { parameters: Array<{ name: string; in: string }> } }
      ).get.parameters
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      // Advertiser routes take `geo` and not `advertiser_id`, public ones the other way round.
      const omitted = route.path.startsWith('/advertiser/') ? 'advertiser_id' : 'geo';
      const parsed = Object.keys(route.query.shape).filter((name) => !(route.viewer && name === omitted));
      expect(documented.sort(), route.path).toEqual(parsed.sort());
    }
  });
});
