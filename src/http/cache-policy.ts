/**
 * Cache headers of widget replies (docs/contract.md, "Caching"). A widget body changes at most once
 * per refresh of the data behind it, so a shared cache (a CDN's edge) may keep it that long
 * (`s-maxage`), serve it one more interval while it fetches the next (`stale-while-revalidate`),
 * and keep serving it through an origin outage (`stale-if-error`).
 *
 * A shared cache may store a body only when every input that chose it is in its cache key: the URL,
 * and the request headers named in `Vary`. The jurisdiction is such an input only when it came from
 * a trusted CDN's geo headers; from the socket address (or X-Forwarded-For) no shared cache can key
 * on it, so those replies stay `private`, as do advertiser replies (an advertiser's key is on them).
 */
import { CDN_GEO, type CdnName } from '../geo/cdn-headers.js';
import type { GeoResult } from '../geo/resolver.js';
import { CORS_HEADERS, jsonShape, type ReplyShape } from '../transport/respond.js';

/** A shared cache keeps serving a body through an origin outage for this many refresh intervals... */
const STALE_IF_ERROR_INTERVALS = 12;
/** ...and at least this long (a minute covers a restart of every API process). */
const MIN_STALE_IF_ERROR_SECONDS = 60;

/**
 * `Cache-Control` for a body whose data refreshes every `refreshSeconds`, with browsers keeping it
 * at most `browserMaxAge` seconds (never longer than the refresh).
 */
export function sharedCacheControl(refreshSeconds: number, browserMaxAge: number): string {
  const refresh = Math.max(1, Math.ceil(refreshSeconds));
  const staleIfError = Math.max(MIN_STALE_IF_ERROR_SECONDS, STALE_IF_ERROR_INTERVALS * refresh);
  return `public, max-age=${Math.min(browserMaxAge, refresh)}, s-maxage=${refresh}, stale-while-revalidate=${refresh}, stale-if-error=${staleIfError}`;
}

/** A widget route's two reply shapes: for a shared cache, and private to the browser. */
export interface WidgetShapes {
  /** Used when the jurisdiction came from the trusted CDN's geo headers (undefined without CDN_GEO). */
  shared: ReplyShape | undefined;
  private: ReplyShape;
}

/**
 * The reply shapes of one widget route. `vary` lists the request headers the body depends on
 * besides the jurisdiction (and Accept-Encoding, which every shape adds); the shared shape adds
 * the CDN's two geo headers.
 */
export function widgetShapes(opts: {
  authenticated: boolean;
  cdn: CdnName | undefined;
  refreshSeconds: number;
  browserMaxAge: number;
  vary: readonly string[];
}): WidgetShapes {
  const cors = opts.authenticated ? {} : CORS_HEADERS;
  const privateVary = opts.authenticated ? opts.vary.filter((h) => h !== 'X-Advertiser-Id') : opts.vary;
  const privateShape = jsonShape({
    ...cors,
    'cache-control': `private, max-age=${opts.browserMaxAge}`,
    ...(privateVary.length > 0 ? { vary: privateVary.join(', ') } : {}),
  });
  if (opts.authenticated || !opts.cdn) return { shared: undefined, private: privateShape };
  const geo = CDN_GEO[opts.cdn];
  return {
    shared: jsonShape({
      ...cors,
      'cache-control': sharedCacheControl(opts.refreshSeconds, opts.browserMaxAge),
      vary: [geo.country, geo.region, ...opts.vary].join(', '),
    }),
    private: privateShape,
  };
}

/** The shared shape when the jurisdiction came from the trusted CDN's headers, else the private one. */
export function shapeFor(shapes: WidgetShapes, geo: GeoResult): ReplyShape {
  return shapes.shared !== undefined && geo.source === 'cdn' ? shapes.shared : shapes.private;
}
