/**
 * The route table: each path with the request headers it reads and its handler, behind the
 * pipeline's stages (pipeline.ts: metrics and access log, problems, methods, the variant-build
 * guard on public widgets). GET and HEAD reach handlers; /v1/postback, the one route that changes
 * something (called server to server, never from a page), takes GET alone. Unknown paths are a 404
 * problem. /readyz is limited per instance and reports draining.
 */
import type { z } from 'zod';
// Imported: Node's global `performance` is a getter, paid on every request.
import { performance } from 'node:perf_hooks';
import { accessLogger } from '../transport/access-log.js';
import { requireAdvertiser } from './auth.js';
import type { Deps } from './deps.js';
import { notFound, Problem } from '../model/problem.js';
import { json } from '../transport/respond.js';
import { eventListRoute, specificEventRoute } from './routes/advertiser.js';
import { reportsRoute } from './routes/reports.js';
import { reportReader } from '../tracking/advertiser-report.js';
import { eventHistoryRoute } from './routes/event-history.js';
import { broadWidgetRoute } from './routes/broad.js';
import { catalogRoute } from './routes/catalog.js';
import { complianceRoutes } from './routes/compliance.js';
import { clickRoute } from './routes/click.js';
import { postbackRoute } from './routes/postback.js';
import { impressionRoute } from './routes/impression.js';
import { type DrainingBody, healthRoute, readyRoute } from './routes/health.js';
import { liveMarketRoute } from './routes/live-market.js';
import { openApiRoute } from './routes/openapi.js';
import { eventWidgetRoute, sportsbookWidgetRoute } from './routes/widgets.js';
import { ADVERTISER_AUDIENCE, publicAudience } from './audience.js';
import { problemReply, type Route } from '../transport/server.js';
import type { paths } from '../generated/openapi-types.js';
import { type Methods, methodsChecked, observed, problemsMapped, variantsGuarded } from './pipeline.js';
import type { Handler, Request, RequestHeaderName } from '../transport/types.js';
import { addressKey } from '../geo/address-key.js';
import { BuiltVariants } from '../limits/built-variants.js';

/** Every HTTP route of the API process, and the handler of every other path (404). */
export interface RouteTable {
  routes: Route[];
  fallback: Handler;
}

/** A path of the OpenAPI document (src/http/openapi.ts). */
export type ApiPath = keyof paths;

/** The fixed pages (routes/pages.ts), prepared at start; undefined: not served (a 404). */
export type Pages = {
  readonly [P in '/v1/embed.js' | '/docs' | '/docs/redoc.standalone.js' | '/demo' | '/advertiser/console']:
    | Handler
    | undefined;
};

/** One route: the request headers its handler reads, the handler, and the methods it takes. */
interface RouteSpec {
  reads: readonly RequestHeaderName[];
  handler: Handler;
  methods?: Methods;
}

/** `/a/{name}` (OpenAPI) as uWS writes it, `/a/:name`. */
const uwsPattern = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Builds the routes of the API process, with the fixed `pages`. */
export function createRouter(deps: Deps, pages: Pages): RouteTable {
  const publicViewers = publicAudience(deps.geo, (id) => deps.verifiedKeys.isRegistered(id));
  const address = (req: Request) => addressKey(deps.geo.clientAddress(req));
  /**
   * /readyz: not ready while draining; limited per address in this instance's memory, except for
   * our own proxies and load balancers (TRUST_PROXY) asking for themselves: they decide rotation.
   */
  const ready = readyRoute(deps);
  const readyGate: Handler = async (req) => {
    if (deps.draining()) return json(503, { status: 'draining' } satisfies z.input<typeof DrainingBody>);
    const client = deps.geo.clientAddress(req);
    if (!(client && deps.geo.isTrustedProxy(client))) await deps.limits.consume('readyz', addressKey(client));
    return ready(req);
  };
  // The request headers each kind of route reads (server.ts reads no other: each read is a call
  // into uWS). X-Forwarded-For counts only behind a trusted proxy (TRUST_PROXY).
  const BASE: RequestHeaderName[] = [
    'x-request-id',
    ...(deps.config.trustProxy.length > 0 ? (['x-forwarded-for'] as const) : []),
  ];
  // A trusted CDN's geo headers decide the jurisdiction of widget requests (only with TRUST_PROXY).
  const GEO = deps.geo.headerNames as readonly RequestHeaderName[];
  const CACHED: RequestHeaderName[] = [...BASE, 'if-none-match', 'accept-encoding', 'x-advertiser-id'];
  const WIDGET: RequestHeaderName[] = [...CACHED, ...GEO, 'user-agent'];
  const BROAD: RequestHeaderName[] = [...WIDGET, 'accept-language'];
  const ADVERTISER: RequestHeaderName[] = [...BROAD, 'x-api-key'];
  const CLICK: RequestHeaderName[] = [...BASE, 'user-agent', 'purpose', 'sec-purpose', 'x-moz'];
  const auth = (h: Handler) => requireAdvertiser(deps, h);
  /** /v1/ws without `Upgrade: websocket` (uWS's WebSocket route passes those on): say how to open it. */
  const upgradeOnly: Handler = () => {
    throw new Problem(
      426,
      'upgrade_required',
      'GET /v1/ws takes only WebSocket upgrades: connect with a WebSocket client (ws:// or wss://).',
      [],
      {
        upgrade: 'websocket',
        connection: 'Upgrade',
      },
    );
  };
  const done = accessLogger(deps.log, deps.config.accessLogSampleRate);
  const compliance = complianceRoutes(deps);
  const reports = reportReader(deps.redis, () => deps.snapshots.get('fx', 'daily')?.data);

  const built = new BuiltVariants();
  const guardDeps = { payloads: deps.payloads, limits: deps.limits, address, now: deps.now };
  const problems = problemsMapped(deps.log);
  /** A route's handler behind the pipeline's stages (pipeline.ts), composed here once. */
  const route = (path: ApiPath, { reads, handler, methods = 'GET, HEAD' }: RouteSpec): Route => {
    const guard = variantsGuarded(guardDeps, built, path.startsWith('/v1/widgets/'));
    // The OpenAPI path names the route in metrics and logs; uWS writes its `{name}` segment `:name`.
    const observe = observed(path, done);
    return { pattern: uwsPattern(path), reads, handler: observe(problems(methodsChecked(methods)(guard(handler)))) };
  };
  const page = (handler: Handler | undefined): RouteSpec | undefined => handler && { reads: CACHED, handler };

  // Keyed by the OpenAPI document's paths (openapi-types.ts, generated from it): a path served but
  // not documented, or documented but not served, does not compile.
  const table: { readonly [P in ApiPath]: RouteSpec | undefined } = {
    '/healthz': { reads: BASE, handler: healthRoute() },
    '/readyz': { reads: BASE, handler: readyGate },
    '/v1/click': { reads: CLICK, handler: clickRoute(deps) },
    '/v1/impression': { reads: CLICK, handler: impressionRoute(deps) },
    '/v1/postback': { reads: BASE, handler: postbackRoute(deps), methods: 'GET' },
    '/v1/ws': { reads: BASE, handler: upgradeOnly },
    '/v1/widgets/event': { reads: WIDGET, handler: eventWidgetRoute(deps, publicViewers) },
    '/v1/widgets/event/history': { reads: [...BASE, ...GEO], handler: eventHistoryRoute(deps) },
    '/v1/widgets/sportsbook': {
      reads: [...CACHED, ...GEO],
      handler: sportsbookWidgetRoute(deps, publicViewers),
    },
    '/v1/widgets/live-market': { reads: [...CACHED, ...GEO], handler: liveMarketRoute(deps, publicViewers) },
    '/v1/widgets/broad': { reads: BROAD, handler: broadWidgetRoute(deps, publicViewers) },
    '/advertiser/v1/widgets/event': {
      reads: ADVERTISER,
      handler: auth(eventWidgetRoute(deps, ADVERTISER_AUDIENCE)),
    },
    '/advertiser/v1/widgets/sportsbook': {
      reads: ADVERTISER,
      handler: auth(sportsbookWidgetRoute(deps, ADVERTISER_AUDIENCE)),
    },
    '/advertiser/v1/widgets/live-market': {
      reads: ADVERTISER,
      handler: auth(liveMarketRoute(deps, ADVERTISER_AUDIENCE)),
    },
    '/advertiser/v1/widgets/events': { reads: ADVERTISER, handler: auth(eventListRoute(deps)) },
    '/advertiser/v1/widgets/broad': {
      reads: ADVERTISER,
      handler: auth(broadWidgetRoute(deps, ADVERTISER_AUDIENCE)),
    },
    '/advertiser/v1/widgets/specific/{event_slug}': { reads: ADVERTISER, handler: auth(specificEventRoute(deps)) },
    '/advertiser/v1/reports': {
      reads: [...BASE, 'x-advertiser-id', 'x-api-key', 'accept'],
      handler: auth(reportsRoute(reports, deps.now)),
    },
    '/v1/catalog': { reads: CACHED, handler: catalogRoute(deps) },
    '/v1/compliance': { reads: CACHED, handler: compliance.json },
    '/compliance': { reads: CACHED, handler: compliance.page },
    '/v1/openapi.json': { reads: CACHED, handler: openApiRoute(deps) },
    '/v1/embed.js': page(pages['/v1/embed.js']),
    '/docs': page(pages['/docs']),
    '/docs/redoc.standalone.js': page(pages['/docs/redoc.standalone.js']),
    '/demo': page(pages['/demo']),
    '/advertiser/console': page(pages['/advertiser/console']),
  };
  const routes = (Object.entries(table) as Array<[ApiPath, RouteSpec | undefined]>).flatMap(([path, spec]) =>
    spec ? [route(path, spec)] : [],
  );
  // Unknown paths are 404 whatever the method.
  const fallback: Handler = (req) =>
    done('unmatched', req, problemReply(notFound(`No route ${req.path}.`), deps.log, req), performance.now());
  return { routes, fallback };
}
