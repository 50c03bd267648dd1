/**
 * The stages every route's requests pass, outermost first: metrics and the sampled access log (they
 * need the final reply), problem mapping (whatever a later stage or the route throws becomes its
 * RFC 9457 reply), the method check, and the variant-build guard; then the route's own stages
 * (/readyz's limit; advertiser authentication and allowance: auth.ts), the request's context with
 * its parsed query, the viewer (audience.ts), and the route. Each stage wraps the next once, at startup: a request
 * makes plain nested calls, with no list walked and no closure made per request.
 *
 * The stages up to authentication see the transport's request: they decide whether it is answered
 * at all. The context (context.ts) is made once it is: the one object a request allocates here.
 */
// Imported: Node's global `performance` is a getter, paid on every request.
import { performance } from 'node:perf_hooks';
import { addressKey } from '../geo/address-key.js';
import type { GeoResolver } from '../geo/resolver.js';
import type { BuiltVariants } from '../limits/built-variants.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { Logger } from '../runtime/log.js';
import { Problem } from '../model/problem.js';
import { PREFLIGHT_HEADERS } from '../transport/respond.js';
import { problemReply } from '../transport/server.js';
import { type Handler, headerList, type Reply, type Request } from '../transport/types.js';
import type { z } from 'zod';
import { RequestContext } from './context.js';
import { parseQuery } from './query.js';

/** What the next stage (or the route) does with `C`: a reply, now or later. */
export type Next<C> = (ctx: C) => Reply | Promise<Reply>;

/** A stage: wraps the next handler of the pipeline into one that runs before (and after) it. */
export type Stage = (next: Handler) => Handler;

/** A route without a query schema gets this query (frozen, shared): every query is an object. */
export const NO_QUERY: Readonly<Record<never, never>> = Object.freeze({});

/**
 * Makes the request's context: its query parsed by `schema` (a 400 problem listing each bad
 * parameter), or NO_QUERY. Parsed after the method check and authentication, so a preflight, a 405
 * or a 401 does not depend on the query.
 */
export function withContext<S extends z.ZodType>(schema: S): (next: Next<RequestContext<z.infer<S>>>) => Handler;
export function withContext(schema: undefined): (next: Next<RequestContext<typeof NO_QUERY>>) => Handler;
export function withContext(schema: z.ZodType | undefined): (next: Next<RequestContext<unknown>>) => Handler {
  if (schema === undefined) return (next) => (req) => next(new RequestContext(req, NO_QUERY));
  return (next) => (req) => next(new RequestContext(req, parseQuery(schema, req.query)));
}

/** The methods a route takes: GET and HEAD (with CORS preflight), or GET alone (it changes something). */
export type Methods = 'GET, HEAD' | 'GET';

/** Per-route metrics and the sampled access log, with the reply the stages below gave. */
export function observed(
  label: string,
  done: (route: string, req: Request, reply: Reply, startMs: number) => Reply,
): Stage {
  return (next) => (req) => {
    const start = performance.now();
    const result = next(req);
    return result instanceof Promise
      ? result.then((reply) => done(label, req, reply, start))
      : done(label, req, result, start);
  };
}

/** Whatever the stages below throw, synchronously or not, as its problem reply (problem.ts). */
export function problemsMapped(log: Logger): Stage {
  return (next) => (req) => {
    let result: Reply | Promise<Reply>;
    try {
      result = next(req);
    } catch (err) {
      return problemReply(err, log, req);
    }
    return result instanceof Promise ? result.catch((err: unknown) => problemReply(err, log, req)) : result;
  };
}

const ALLOW = 'GET, HEAD, OPTIONS';
const PREFLIGHT: Reply = { status: 204, headers: headerList({ ...PREFLIGHT_HEADERS, allow: ALLOW }) };

/**
 * The method check: GET and HEAD reach the route, OPTIONS answers CORS preflight, anything else is
 * 405. A GET-only route (called server to server, never from a page: a HEAD must not count as a
 * GET) answers every other method 405.
 */
export function methodsChecked(methods: Methods): Stage {
  if (methods === 'GET')
    return (next) => (req) => {
      if (req.method === 'GET') return next(req);
      throw new Problem(405, 'method_not_allowed', `${req.method} is not supported here: send it as GET.`, [], {
        allow: 'GET',
      });
    };
  return (next) => (req) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next(req);
    if (req.method === 'OPTIONS') return PREFLIGHT;
    throw new Problem(405, 'method_not_allowed', `${req.method} is not supported; this API is read-only.`, [], {
      allow: ALLOW,
    });
  };
}

/** What the variant-build guard reads: the build count, the limits, the client's address key, the time. */
export interface VariantGuardDeps {
  payloads: { readonly builds: number };
  limits: Pick<RateLimits, 'anyBlocked' | 'blockedNow' | 'charge'>;
  address(req: Request): string;
  now(): number;
}

/**
 * A request that built a body for a variant (path and query) never built before is charged to its
 * address afterwards (`variant_build`): serving a cached body and rebuilding one after a data change
 * stay free. With `refuse` (public widgets), an address that keeps making us build new variants is
 * refused them from memory, before any build, until its window ends, while it still gets the
 * variants already built.
 */
export function variantsGuarded(deps: VariantGuardDeps, built: BuiltVariants, refuse: boolean): Stage {
  const { payloads, limits } = deps;
  return (next) => (req) => {
    // Free unless some address is blocked; a blocked one still gets the variants built before.
    if (refuse && limits.anyBlocked) {
      const problem = limits.blockedNow('variant_build', deps.address(req), deps.now());
      if (problem && !built.has(req)) throw problem;
    }
    const builds = payloads.builds;
    try {
      return next(req);
    } finally {
      if (payloads.builds !== builds && built.first(req)) limits.charge('variant_build', deps.address(req));
    }
  };
}

/** What the readiness limit reads: the client's address, whether it is our own proxy, the limit. */
export interface AddressLimitDeps {
  geo: Pick<GeoResolver, 'clientAddress' | 'isTrustedProxy'>;
  limits: Pick<RateLimits, 'consume'>;
}

/**
 * /readyz's limit: per client address, in this instance's memory (`readyz`), except for our own
 * proxies and load balancers (TRUST_PROXY) asking for themselves: they decide rotation.
 */
export function readinessLimited({ geo, limits }: AddressLimitDeps): Stage {
  return (next) => async (req) => {
    const client = geo.clientAddress(req);
    if (!(client && geo.isTrustedProxy(client))) await limits.consume('readyz', addressKey(client));
    return next(req);
  };
}
