/**
 * Path and method dispatch. Only GET and HEAD reach handlers; OPTIONS answers CORS preflight;
 * anything else is a 405 problem. Unknown paths are a 404 problem. Every reply is counted per
 * route (metrics, sampled access log); requests that built an uncached public body are charged to
 * their address afterwards (build-guard.ts); /readyz is limited and reports draining.
 */
import type { z } from 'zod';
import { accessLogger } from './access-log.js';
import { requireAdvertiser } from './auth.js';
import { BuildGuard } from './build-guard.js';
import type { Deps } from './deps.js';
import { invalidParameters, notFound, Problem } from './problem.js';
import { json, PREFLIGHT_HEADERS } from './respond.js';
import { eventListRoute, SPECIFIC_PREFIX, specificEventRoute } from './routes/advertiser.js';
import { broadWidgetRoute } from './routes/broad.js';
import { catalogRoute } from './routes/catalog.js';
import { clickRoute } from './routes/click.js';
import { DrainingBody, healthRoute, readyRoute } from './routes/health.js';
import { liveMarketRoute } from './routes/live-market.js';
import { openApiRoute } from './routes/openapi.js';
import { eventWidgetRoute, sportsbookWidgetRoute, type Attribution } from './routes/widgets.js';
import { problemReply } from './server.js';
import type { Handler, Reply, Request } from './types.js';
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import { addressKey } from '../geo/address-key.js';

const ALLOW = 'GET, HEAD, OPTIONS';

/** Authenticated widgets: the advertiser is the one whose key was checked. */
const authenticatedAttribution: Attribution = (req) => req.headers['x-advertiser-id'];

/** Builds the dispatcher for every HTTP route of the API process. */
export function createRouter(deps: Deps, extra: Record<string, Handler> = {}): Handler {
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
  /** /readyz: not ready while draining; limited per address (it reads Redis). */
  const ready = readyRoute(deps);
  const readyGate: Handler = async (req) => {
    if (deps.draining()) return json(503, { status: 'draining' } satisfies z.input<typeof DrainingBody>);
    await deps.limits.consume('readyz', address(req));
    return ready(req);
  };
  const auth = (h: Handler) => requireAdvertiser(deps, h);
  const guard = new BuildGuard(deps.limits);
  const done = accessLogger(deps.log, deps.config.accessLogSampleRate);
  const routes = new Map<string, Handler>([
    ['/healthz', healthRoute()],
    ['/readyz', readyGate],
    ['/v1/click', clickRoute(deps)],
    ['/v1/widgets/event', eventWidgetRoute(deps, false, publicAttribution)],
    ['/v1/widgets/sportsbook', sportsbookWidgetRoute(deps, false, publicAttribution)],
    ['/v1/widgets/live-market', liveMarketRoute(deps, false, publicAttribution)],
    ['/advertiser/v1/widgets/event', auth(eventWidgetRoute(deps, true, authenticatedAttribution))],
    ['/advertiser/v1/widgets/sportsbook', auth(sportsbookWidgetRoute(deps, true, authenticatedAttribution))],
    ['/advertiser/v1/widgets/live-market', auth(liveMarketRoute(deps, true, authenticatedAttribution))],
    ['/advertiser/v1/widgets/events', auth(eventListRoute(deps))],
    ['/v1/widgets/broad', broadWidgetRoute(deps, false, publicAttribution)],
    ['/advertiser/v1/widgets/broad', auth(broadWidgetRoute(deps, true, authenticatedAttribution))],
    ['/v1/catalog', catalogRoute(deps)],
    ['/v1/openapi.json', openApiRoute(deps)],
    ...Object.entries(extra),
  ]);
  const specific = auth(specificEventRoute(deps));

  const resolve = (path: string): Handler | undefined => {
    const exact = routes.get(path);
    if (exact) return exact;
    if (path.startsWith(SPECIFIC_PREFIX) && path.length > SPECIFIC_PREFIX.length && !path.slice(SPECIFIC_PREFIX.length).includes('/')) {
      return specific;
    }
    return undefined;
  };

  return (req: Request): Reply | Promise<Reply> => {
    const start = process.hrtime.bigint();
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const handler = resolve(path);
    const route = !handler ? 'unmatched' : routes.has(path) ? path : `${SPECIFIC_PREFIX}{slug}`;
    const builds = deps.payloads.builds;
    let result: Reply | Promise<Reply>;
    try {
      if (!handler) throw notFound(`No route ${req.path}.`);
      if (req.method === 'OPTIONS') result = { status: 204, headers: { ...PREFLIGHT_HEADERS, allow: ALLOW } };
      else if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new Problem(405, 'method_not_allowed', `${req.method} is not supported; this API is read-only.`, [], { allow: ALLOW });
      } else {
        // Free unless some address is blocked for building too many variants.
        if (guard.active && path.startsWith('/v1/widgets/')) {
          const problem = guard.check(address(req), Date.now());
          if (problem) throw problem;
        }
        result = handler({ ...req, path });
      }
    } catch (err) {
      result = problemReply(err, deps.log, req);
    }
    if (deps.payloads.builds !== builds) guard.charge(address(req));
    if (result instanceof Promise) {
      return result.catch((err: unknown) => problemReply(err, deps.log, req)).then((reply) => done(route, req, reply, start));
    }
    return done(route, req, result, start);
  };
}
