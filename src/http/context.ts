/**
 * What a route gets of one request: the transport's request, its query as the route's zod schema
 * parsed it, and the viewer, resolved once by the pipeline's viewer stage (pipeline.ts) rather than
 * by each route. One object per request: the viewer's fields live on the context itself, and
 * `viewer` is the context seen as a Viewer, so a request allocates nothing more for it.
 */
import type { GeoResult } from '../geo/resolver.js';
import type { CurrencyCode, Locale } from '../model/index.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import { viewerLocale } from '../serve/viewer.js';
import type { Request } from '../transport/types.js';

/** Who a widget is built for (serve/viewer.ts says how each part is decided). */
export interface Viewer {
  /** The jurisdiction and where it came from (the source decides whether a shared cache may keep the reply). */
  readonly geo: GeoResult;
  /** Who gets credit for clicks: the authenticated advertiser, else the public's registered hint, else none. */
  readonly advertiserId: string | undefined;
  /** Whether the caller proved an advertiser key (the reply shapes differ: cache-policy.ts). */
  readonly authenticated: boolean;
  /** The currency the query asked for, where the route takes one; the default depends on the loaded rates (serve/). */
  readonly currency: CurrencyCode | undefined;
  /** Accept-Language when it names a catalog locale, else the jurisdiction's. Worked out when first read. */
  readonly locale: Locale;
}

/** Before the viewer stage ran (routes without a viewer): nowhere, which no route reads. */
const NOWHERE: GeoResult = Object.freeze({ jurisdiction: UNKNOWN_COUNTRY, source: 'unknown' });

/** One request as a route sees it; `Q` is its query schema's output. */
export class RequestContext<Q = unknown> implements Viewer {
  geo: GeoResult = NOWHERE;
  advertiserId: string | undefined = undefined;
  authenticated = false;
  currency: CurrencyCode | undefined = undefined;
  #locale: Locale | undefined = undefined;

  constructor(
    readonly req: Request,
    /** The query, parsed once by the route's schema (memoized per query string: query.ts). */
    readonly query: Q,
  ) {}

  /** The viewer's part of the context (the same object: see the file's comment). */
  get viewer(): Viewer {
    return this;
  }

  get locale(): Locale {
    // Only the broad widget reads it (and only it reads Accept-Language).
    return (this.#locale ??= viewerLocale(this.req.headers['accept-language'], this.geo.jurisdiction));
  }
}
