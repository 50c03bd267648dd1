/**
 * Path and method dispatch. Only GET and HEAD reach handlers; OPTIONS answers CORS preflight;
 * anything else is a 405 problem. Unknown paths are a 404 problem.
 */
import { requireAdvertiser } from './auth.js';
import type { Deps } from './deps.js';
import { invalidParameters, notFound, Problem } from './problem.js';
import { PREFLIGHT_HEADERS } from './respond.js';
import { eventListRoute, SPECIFIC_PREFIX, specificEventRoute } from './routes/advertiser.js';
import { broadWidgetRoute } from './routes/broad.js';
import { clickRoute } from './routes/click.js';
import { healthRoute, readyRoute } from './routes/health.js';
import { liveMarketRoute } from './routes/live-market.js';
import { eventWidgetRoute, sportsbookWidgetRoute, type Attribution } from './routes/widgets.js';
import { problemReply } from './server.js';
import type { Handler, Reply, Request } from './types.js';
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';

const ALLOW = 'GET, HEAD, OPTIONS';

/** Public widgets: an optional advertiser_id (query or header) attributes clicks, grants nothing. */
const publicAttribution: Attribution = (req, hint) => {
  const header = req.headers['x-advertiser-id'];
  if (hint === undefined && header !== undefined && !ADVERTISER_ID.test(header)) {
    throw invalidParameters([{ param: 'x-advertiser-id', message: 'must be 3-64 characters of a-z, 0-9, _ and -' }]);
  }
  return hint ?? header;
};
/** Authenticated widgets: the advertiser is the one whose key was checked. */
const authenticatedAttribution: Attribution = (req) => req.headers['x-advertiser-id'];

/** Builds the dispatcher for every HTTP route of the API process. */
export function createRouter(deps: Deps, extra: Record<string, Handler> = {}): Handler {
  const auth = (h: Handler) => requireAdvertiser(deps.advertisers, h);
  const routes = new Map<string, Handler>([
    ['/healthz', healthRoute()],
    ['/readyz', readyRoute(deps)],
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
    const debug = deps.log.isLevelEnabled('debug');
    const start = debug ? process.hrtime.bigint() : 0n;
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const handler = resolve(path);
    let result: Reply | Promise<Reply>;
    try {
      if (!handler) throw notFound(`No route ${req.path}.`);
      if (req.method === 'OPTIONS') result = { status: 204, headers: { ...PREFLIGHT_HEADERS, allow: ALLOW } };
      else if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new Problem(405, 'method_not_allowed', `${req.method} is not supported; this API is read-only.`, [], { allow: ALLOW });
      } else result = handler({ ...req, path });
    } catch (err) {
      result = problemReply(err, deps.log, req);
    }
    if (result instanceof Promise) result = result.catch((err: unknown) => problemReply(err, deps.log, req));
    if (!debug) return result;
    const log = (reply: Reply) => {
      deps.log.debug({ method: req.method, path: req.path, status: reply.status, us: Number(process.hrtime.bigint() - start) / 1000 }, 'request');
      return reply;
    };
    return result instanceof Promise ? result.then(log) : log(result);
  };
}
