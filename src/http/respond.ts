/** Reply helpers shared by routes: JSON bodies with ETag/304, CORS, cache headers. */
import type { CachedBody } from './payload-cache.js';
import type { Reply, Request } from './types.js';

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
};

export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'x-advertiser-id, x-api-key, if-none-match, accept-language, x-request-id',
  'access-control-max-age': '600',
};

/** True when If-None-Match names this entity tag (or is "*"). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });
}

/** A cached JSON body as a 200, or a 304 when the client already holds it. */
export function cachedJson(req: Request, entry: CachedBody, headers: Record<string, string>): Reply {
  const common = { etag: entry.etag, 'last-modified': entry.lastModified, ...headers };
  if (matches(req.headers['if-none-match'], entry.etag)) return { status: 304, headers: common };
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...common }, body: entry.body };
}

/** Fixed bytes of any type (the embed script, the demo page) as a 200 or 304, with CORS. */
export function cachedAsset(req: Request, entry: Pick<CachedBody, 'body' | 'etag' | 'lastModified'>, contentType: string, headers: Record<string, string>): Reply {
  const common = { etag: entry.etag, 'last-modified': entry.lastModified, ...CORS_HEADERS, ...headers };
  if (matches(req.headers['if-none-match'], entry.etag)) return { status: 304, headers: common };
  return { status: 200, headers: { 'content-type': contentType, ...common }, body: entry.body };
}

/** An uncached JSON reply (health, readiness, problems are built elsewhere). */
export function json(status: number, payload: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }, body: JSON.stringify(payload) };
}
