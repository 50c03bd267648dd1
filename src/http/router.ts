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
import { invalidParameters, notFound, Problem } from '../problem.js';
import { json } from '../transport/respond.js';
import { eventListRoute, SPECIFIC_PREFIX, specificEventRoute } from './routes/advertiser.js';
import { reportsRoute } from './routes/reports.js';
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
import { eventWidgetRoute, sportsbookWidgetRoute, type Attribution } from './routes/widgets.js';
import { problemReply, type Route } from '../transport/server.js';
import { type Methods, methodsChecked, observed, problemsMapped, variantsGuarded } from './pipeline.js';
import type { Handler, Request, RequestHeaderName } from '../transport/types.js';
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import { addressKey } from '../geo/address-key.js';
import { BuiltVariants } from '../limits/built-variants.js';

/** Authenticated widgets: the advertiser is the one whose key was checked. */
const authenticatedAttribution: Attribution = (req) => req.headers['x-advertiser-id'];

/** Every HTTP route of the API process, and the handler of every other path (404). */
export interface RouteTable {
  routes: Route[];
  fallback: Handler;
}

/** Builds the routes of the API process; `extra` are fixed pages (path → handler). */
export function createRouter(deps: Deps, extra: Record<string, Handler> = {}): RouteTable {
  /**
   * Public widgets: an optional advertiser_id (query or header) attributes clicks, grants nothing.
   * Only a registered advertiser is credited: an invented id changes neither links nor cache keys.
   */
  const publicAttribution: Attribution = (req, hint) => {
    const header = req.headers['x-advertiser-id'];
    if (hint === undefined && header !== undefined && !ADVERTISER_ID.test(header)) {
      throw invalidParameters([{ param: 'x-advertiser-id', message: 'must be 3-64 characters of a-z, 0-9, _ and -' }]);
    }
    const id = hint ?? header;
    return id !== undefined && deps.verifiedKeys.isRegistered(id) ? id : undefined;
  };
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

  const built = new BuiltVariants();
  const guardDeps = { payloads: deps.payloads, limits: deps.limits, address, now: deps.now };
  const problems = problemsMapped(deps.log);
  /** A route's handler behind the pipeline's stages (pipeline.ts), composed here once. */
  const route = (
    pattern: string,
    reads: readonly RequestHeaderName[],
    handler: Handler,
    { label = pattern, methods = 'GET, HEAD' as Methods } = {},
  ): Route => {
    const guard = variantsGuarded(guardDeps, built, pattern.startsWith('/v1/widgets/'));
    return { pattern, reads, handler: observed(label, done)(problems(methodsChecked(methods)(guard(handler)))) };
  };

  const routes: Route[] = [
    route('/healthz', BASE, healthRoute()),
    route('/readyz', BASE, readyGate),
    route('/v1/click', CLICK, clickRoute(deps)),
    route('/v1/impression', CLICK, impressionRoute(deps)),
    route('/v1/postback', BASE, postbackRoute(deps), { methods: 'GET' }),
    route('/v1/ws', BASE, upgradeOnly),
    route('/v1/widgets/event', WIDGET, eventWidgetRoute(deps, false, publicAttribution)),
    route('/v1/widgets/event/history', [...BASE, ...GEO], eventHistoryRoute(deps)),
    route('/v1/widgets/sportsbook', [...CACHED, ...GEO], sportsbookWidgetRoute(deps, false, publicAttribution)),
    route('/v1/widgets/live-market', [...CACHED, ...GEO], liveMarketRoute(deps, false, publicAttribution)),
    route('/v1/widgets/broad', BROAD, broadWidgetRoute(deps, false, publicAttribution)),
    route('/advertiser/v1/widgets/event', ADVERTISER, auth(eventWidgetRoute(deps, true, authenticatedAttribution))),
    route(
      '/advertiser/v1/widgets/sportsbook',
      ADVERTISER,
      auth(sportsbookWidgetRoute(deps, true, authenticatedAttribution)),
    ),
    route(
      '/advertiser/v1/widgets/live-market',
      ADVERTISER,
      auth(liveMarketRoute(deps, true, authenticatedAttribution)),
    ),
    route('/advertiser/v1/widgets/events', ADVERTISER, auth(eventListRoute(deps))),
    route('/advertiser/v1/widgets/broad', ADVERTISER, auth(broadWidgetRoute(deps, true, authenticatedAttribution))),
    route(`${SPECIFIC_PREFIX}:slug`, ADVERTISER, auth(specificEventRoute(deps)), { label: `${SPECIFIC_PREFIX}{slug}` }),
    route('/advertiser/v1/reports', [...BASE, 'x-advertiser-id', 'x-api-key', 'accept'], auth(reportsRoute(deps))),
    route('/v1/catalog', CACHED, catalogRoute(deps)),
    route('/v1/compliance', CACHED, compliance.json),
    route('/compliance', CACHED, compliance.page),
    route('/v1/openapi.json', CACHED, openApiRoute(deps)),
    ...Object.entries(extra).map(([path, handler]) => route(path, CACHED, handler)),
  ];
  // Unknown paths are 404 whatever the method.
  const fallback: Handler = (req) =>
    done('unmatched', req, problemReply(notFound(`No route ${req.path}.`), deps.log, req), performance.now());
  return { routes, fallback };
}
