/**
 * The route table: each declared route (api-routes.ts) behind the pipeline's stages (pipeline.ts),
 * composed here once from its declaration, and made from only the parts it uses. GET and HEAD reach
 * handlers; /v1/postback, the one route that changes something (called server to server, never
 * from a page), takes GET alone. Unknown paths are a 404 problem.
 */
// Imported: Node's global `performance` is a getter, paid on every request.
import { performance } from 'node:perf_hooks';
import type { Config } from '../config.js';
import { addressKey } from '../geo/address-key.js';
import type { GeoResolver } from '../geo/resolver.js';
import { BuiltVariants } from '../limits/built-variants.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { notFound } from '../model/problem.js';
import type { Logger } from '../runtime/log.js';
import type { ServeContext } from '../serve/context.js';
import type { EventHistoryReader } from '../serve/event-history-body.js';
import type { LivePayloads } from '../serve/live-payloads.js';
import type { ReportReader } from '../tracking/advertiser-report.js';
import { accessLogger } from '../transport/access-log.js';
import { problemReply, type Route } from '../transport/server.js';
import type { Handler, Request, RequestHeaderName } from '../transport/types.js';
import { ROUTES } from './api-routes.js';
import { type Audience, advertiserViewer, publicViewer, type ViewerStage } from './audience.js';
import { type AuthDeps, advertiserAllowance, advertiserAuthenticated } from './auth.js';
import { buildOpenApi } from './openapi.js';
import {
  methodsChecked,
  observed,
  problemsMapped,
  readinessLimited,
  variantsGuarded,
  withContext,
} from './pipeline.js';
import type { AnyRoute, ApiPath, Read, RouteDecl, RouteHandler } from './route.js';
import type { ClickDeps } from './routes/click.js';
import type { ComplianceDeps } from './routes/compliance.js';
import { complianceBodies } from './routes/compliance.js';
import type { ReadyDeps } from './routes/health.js';
import type { ImpressionDeps } from './routes/impression.js';
import { CONTRACT_VERSION } from './routes/openapi.js';
import type { Pages } from './routes/pages.js';
import type { PostbackDeps } from './routes/postback.js';

/** Every HTTP route of the API process, and the handler of every other path (404). */
export interface RouteTable {
  routes: Route[];
  fallback: Handler;
}

/** The parts the routes are made from; each route and stage is handed only what it uses. */
export interface RouterParts {
  config: Pick<Config, 'trustProxy' | 'accessLogSampleRate' | 'publicBaseUrl' | 'production' | 'cdnGeo'>;
  log: Logger;
  geo: GeoResolver;
  /** What the widget bodies are built from (serve/). */
  serve: ServeContext;
  live: Pick<LivePayloads, 'latest'>;
  limits: RateLimits;
  auth: Omit<AuthDeps, 'address' | 'log' | 'now' | 'limits'> & { isRegistered(id: string): boolean };
  click: Omit<ClickDeps, 'address' | 'limits' | 'now' | 'snapshots'>;
  impression: Omit<ImpressionDeps, 'address' | 'now'>;
  postback: Omit<PostbackDeps, 'address' | 'limits' | 'log' | 'now'>;
  ready: ReadyDeps;
  compliance: Omit<ComplianceDeps, 'now'>;
  reports: ReportReader;
  history: EventHistoryReader;
  startedAt: Date;
}

/** A route's handler made from its parts (undefined: not served), beside its declaration. */
interface Made<P extends ApiPath = ApiPath> {
  // biome-ignore lint/suspicious/noExplicitAny: any query and parts: checked where the route is made
  decl: RouteDecl<P, any, any>;
  handler: RouteHandler<unknown> | undefined;
}

/** `decl`'s handler made from `deps`: only what its declaration asks for. */
// biome-ignore lint/suspicious/noExplicitAny: any query: the handler's own is checked where it is declared
const make = <P extends ApiPath, D>(decl: RouteDecl<P, any, D>, deps: NoInfer<D>): Made<P> => ({
  decl,
  handler: decl.handler(deps),
});

/** `/a/{name}` (OpenAPI) as uWS writes it, `/a/:name`. */
const uwsPattern = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Builds the routes of the API process, with the fixed `pages`. */
export function createRouter(parts: RouterParts, pages: Pages): RouteTable {
  const { config, log, geo, serve: serving, limits } = parts;
  const now = serving.now;
  const complianceBody = complianceBodies({ ...parts.compliance, now });
  const live = { live: parts.live, cdn: config.cdnGeo };
  const address = (req: Request) => addressKey(geo.clientAddress(req));

  // Keyed by the OpenAPI document's paths: every declared route is made here, from its parts.
  const table: { readonly [P in ApiPath]: Made<P> } = {
    '/v1/widgets/broad': make(ROUTES['/v1/widgets/broad'], serving),
    '/advertiser/v1/widgets/broad': make(ROUTES['/advertiser/v1/widgets/broad'], serving),
    '/v1/widgets/event': make(ROUTES['/v1/widgets/event'], serving),
    '/advertiser/v1/widgets/event': make(ROUTES['/advertiser/v1/widgets/event'], serving),
    '/v1/widgets/sportsbook': make(ROUTES['/v1/widgets/sportsbook'], serving),
    '/advertiser/v1/widgets/sportsbook': make(ROUTES['/advertiser/v1/widgets/sportsbook'], serving),
    '/v1/widgets/live-market': make(ROUTES['/v1/widgets/live-market'], live),
    '/advertiser/v1/widgets/live-market': make(ROUTES['/advertiser/v1/widgets/live-market'], live),
    '/v1/widgets/event/history': make(ROUTES['/v1/widgets/event/history'], parts.history),
    '/advertiser/v1/widgets/events': make(ROUTES['/advertiser/v1/widgets/events'], serving),
    '/advertiser/v1/widgets/specific/{event_slug}': make(
      ROUTES['/advertiser/v1/widgets/specific/{event_slug}'],
      serving,
    ),
    '/advertiser/v1/reports': make(ROUTES['/advertiser/v1/reports'], { read: parts.reports, now }),
    '/v1/catalog': make(ROUTES['/v1/catalog'], serving),
    '/v1/compliance': make(ROUTES['/v1/compliance'], complianceBody),
    '/compliance': make(ROUTES['/compliance'], complianceBody),
    '/v1/openapi.json': make(ROUTES['/v1/openapi.json'], {
      document: buildOpenApi(config, CONTRACT_VERSION),
      startedAt: parts.startedAt,
    }),
    '/v1/embed.js': make(ROUTES['/v1/embed.js'], pages),
    '/docs': make(ROUTES['/docs'], pages),
    '/docs/redoc.standalone.js': make(ROUTES['/docs/redoc.standalone.js'], pages),
    '/demo': make(ROUTES['/demo'], pages),
    '/advertiser/console': make(ROUTES['/advertiser/console'], pages),
    '/v1/click': make(ROUTES['/v1/click'], { ...parts.click, address, limits, now, snapshots: serving.snapshots }),
    '/v1/impression': make(ROUTES['/v1/impression'], { ...parts.impression, address, now }),
    '/v1/postback': make(ROUTES['/v1/postback'], { ...parts.postback, address, limits, log, now }),
    '/healthz': make(ROUTES['/healthz'], undefined),
    '/readyz': make(ROUTES['/readyz'], parts.ready),
    '/v1/ws': make(ROUTES['/v1/ws'], undefined),
  };

  // The request headers a route reads besides its own (server.ts reads no other: each read is a
  // call into uWS). X-Forwarded-For counts only behind a trusted proxy (TRUST_PROXY); a trusted
  // CDN's geo headers place the viewer (only with TRUST_PROXY and CDN_GEO).
  const BASE: RequestHeaderName[] = [
    'x-request-id',
    ...(config.trustProxy.length > 0 ? (['x-forwarded-for'] as const) : []),
  ];
  const GEO = geo.headerNames as readonly RequestHeaderName[];
  const readsOf = (reads: readonly Read[]): RequestHeaderName[] => [
    ...BASE,
    ...reads.flatMap((r) => (r === 'cdn-geo' ? GEO : [r])),
  ];

  const viewers: Record<Audience, ViewerStage> = {
    public: publicViewer(geo, parts.auth.isRegistered),
    advertiser: advertiserViewer,
  };
  const authDeps: AuthDeps = { ...parts.auth, limits, address, log, now };
  const authenticated = advertiserAuthenticated(authDeps);
  const allowance = advertiserAllowance(authDeps);
  const readyLimit = readinessLimited({ geo, limits });
  const done = accessLogger(log, config.accessLogSampleRate);
  const built = new BuiltVariants();
  const guardDeps = { payloads: serving.payloads, limits, address, now };
  const problems = problemsMapped(log);

  /** A route's handler behind the pipeline's stages (pipeline.ts), composed here once. */
  const compose = (decl: AnyRoute, handler: RouteHandler<unknown>): Route => {
    const toRoute = decl.viewer ? viewers[decl.viewer](handler) : handler;
    let h: Handler = withContext(decl.query)(toRoute);
    if (decl.auth) h = authenticated(allowance(h));
    if (decl.limitedPerAddress) h = readyLimit(h);
    const guard = variantsGuarded(guardDeps, built, decl.path.startsWith('/v1/widgets/'));
    // The OpenAPI path names the route in metrics and logs; uWS writes its `{name}` segment `:name`.
    const observe = observed(decl.path, done);
    return {
      pattern: uwsPattern(decl.path),
      reads: readsOf(decl.reads),
      handler: observe(problems(methodsChecked(decl.methods ?? 'GET, HEAD')(guard(h)))),
    };
  };
  const routes = Object.values(table).flatMap(({ decl, handler }) => (handler ? [compose(decl, handler)] : []));
  // Unknown paths are 404 whatever the method.
  const fallback: Handler = (req) =>
    done('unmatched', req, problemReply(notFound(`No route ${req.path}.`), log, req), performance.now());
  return { routes, fallback };
}
