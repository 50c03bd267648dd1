/**
 * A route, declared once: its path, the methods and request headers it takes, its query schema,
 * who it serves, its OpenAPI operation and its handler. The router (router.ts) composes the
 * pipeline's stages around the handler from the declaration; the document (openapi.ts) is made of
 * the same declarations (routes.ts), so the two cannot drift.
 */
import type { z } from 'zod';
import type { paths } from '../generated/openapi-types.js';
import type { RequestHeaderName } from '../transport/types.js';
import type { Audience } from './audience.js';
import type { RequestContext } from './context.js';
import type { Obj } from './openapi-parts.js';
import type { Methods, Next, NO_QUERY } from './pipeline.js';

/** A path of the OpenAPI document (openapi.ts), as the generated types (src/generated/) name it. */
export type ApiPath = keyof paths;

/**
 * A request header a route reads besides X-Request-Id (and X-Forwarded-For behind TRUST_PROXY,
 * which every route reads); `cdn-geo`: the trusted CDN's two geo headers, none without CDN_GEO.
 */
export type Read = RequestHeaderName | 'cdn-geo';

/** Conditional requests and compressed replies, and the advertiser a public answer credits. */
export const CACHED: readonly Read[] = ['if-none-match', 'accept-encoding', 'x-advertiser-id'];
/** A widget's: where the viewer is, and what client asks (bots are not counted). */
export const WIDGET: readonly Read[] = [...CACHED, 'cdn-geo', 'user-agent'];
/** A signed link's (a click, an impression): who follows it, and whether it is a prefetch (not counted). */
export const SIGNED_LINK: readonly Read[] = ['user-agent', 'purpose', 'sec-purpose', 'x-moz'];
/** An advertiser widget's: every widget's headers, Accept-Language and the key. */
export const ADVERTISER: readonly Read[] = [...WIDGET, 'accept-language', 'x-api-key'];

/** The query a route's handler sees: its schema's output, or NO_QUERY without one. */
export type QueryOf<S> = S extends z.ZodType ? z.infer<S> : typeof NO_QUERY;

/** A route's handler for its context. */
export type RouteHandler<S> = Next<RequestContext<QueryOf<S>>>;

/** One route: `D` is what its handler is made from (only what it uses), given by the router. */
export interface RouteDecl<P extends ApiPath, S extends z.ZodType | undefined, D> {
  readonly path: P;
  /** GET and HEAD (with CORS preflight) unless it changes something: then GET alone. */
  readonly methods?: Methods;
  readonly reads: readonly Read[];
  /** Parsed once per request, after authentication, into `ctx.query`. */
  readonly query?: S;
  /** Advertiser routes: the key is checked (auth.ts) before the query is parsed. */
  readonly auth?: true;
  /**
   * Widget routes: the viewer resolved once per request (audience.ts) into `ctx.viewer`, from the
   * query's ViewerQuery parameters where it has them.
   */
  readonly viewer?: Audience;
  /** /readyz: limited per client address in this instance's memory (pipeline.ts, `readinessLimited`). */
  readonly limitedPerAddress?: true;
  /** Its path item in the OpenAPI document, made when the document is. */
  readonly openapi: () => Obj;
  /** Its handler, made once when the table is built; undefined: not served (a 404). */
  readonly handler: (deps: D) => RouteHandler<S> | undefined;
}

/** Any route's declaration, as the router and the document hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a table of routes with different queries and parts
export type AnyRoute = RouteDecl<ApiPath, any, any>;

/** Declares a route (the query's type is inferred from its schema). */
export const route = <P extends ApiPath, S extends z.ZodType | undefined = undefined, D = void>(
  decl: RouteDecl<P, S, D>,
): RouteDecl<P, S, D> => decl;
