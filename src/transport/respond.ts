/**
 * Reply helpers shared by routes: JSON bodies with ETag/304, CORS, cache headers, content coding.
 *
 * Cached bodies are served through a `ReplyShape` (a route's fixed headers). For each body and
 * shape, the replies (200 per content coding, and 304) are put together on first use and kept with
 * the body, so serving one is a lookup: no header object, spread or string is built per request.
 */
import { compress, MIN_COMPRESS_BYTES, preferredEncoding, type Encoding } from './compression.js';
import type { CachedBody } from '../serve/payload-cache.js';
import { headerList, packHead, type Reply, type Request } from './types.js';

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

/** A route's fixed response headers and content type, made once per route. */
export class ReplyShape {
  readonly headers: readonly string[];

  /**
   * `headers` are the route's own (Cache-Control, Vary, CORS); `Vary: Accept-Encoding` is added,
   * since every cached body is served compressed to clients that accept it.
   */
  constructor(
    readonly contentType: string,
    headers: Readonly<Record<string, string>>,
    /** Fixed assets made once per process: compressed at the slowest, smallest setting. */
    readonly maxCompression = false,
  ) {
    const vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    this.headers = headerList({ ...headers, vary });
  }
}

interface Prepared {
  ok: Reply;
  notModified: Reply;
}

/**
 * A body's prepared replies for one shape, one slot per coding. Named slots rather than an object
 * keyed by the coding: every request reads one, and a keyed read on objects of varying shapes is
 * V8's slowest kind once many routes share this code.
 */
class PreparedByEncoding {
  identity: Prepared | undefined = undefined;
  gzip: Prepared | undefined = undefined;
  br: Prepared | undefined = undefined;
}

/** True when If-None-Match names this body in any coding (its tags share a stem), weak or strong, or is "*". */
function matches(ifNoneMatch: string, entry: CachedBody): boolean {
  return ifNoneMatch.includes(entry.tagStem) || ifNoneMatch.trim() === '*';
}

function prepare(entry: CachedBody, shape: ReplyShape, encoding: Encoding): Prepared {
  let body = entry.body;
  let etag = entry.etag;
  const coding: string[] = [];
  if (encoding !== 'identity' && body.length >= MIN_COMPRESS_BYTES) {
    const compressed = (entry.encoded[encoding] ??= compress(entry.body, encoding, shape.maxCompression));
    // A body too small to gain is sent as it is (its tag and coding stay identity's).
    if (compressed.length < body.length) {
      body = compressed;
      etag = `${entry.tagStem}-${encoding}"`;
      coding.push('content-encoding', encoding);
    }
  }
  const validators = ['etag', etag, 'last-modified', entry.lastModified];
  const okHeaders = ['content-type', shape.contentType, ...coding, ...validators, ...shape.headers];
  const notModifiedHeaders = [...validators, ...shape.headers];
  return {
    ok: { status: 200, headers: okHeaders, body, head: packHead(200, okHeaders) },
    // `body: undefined` keeps every prepared reply one shape (the server reads them all).
    notModified: { status: 304, headers: notModifiedHeaders, body: undefined, head: packHead(304, notModifiedHeaders) },
  };
}

/** A body's replies for a shape other than its first (held in the entry's own fields), made on first use. */
function repliesFor(entry: CachedBody, shape: ReplyShape): PreparedByEncoding {
  if (entry.firstShape === undefined) {
    entry.firstShape = shape;
    return (entry.firstReplies = new PreparedByEncoding());
  }
  let byEncoding = entry.replies.get(shape) as PreparedByEncoding | undefined;
  if (!byEncoding) entry.replies.set(shape, (byEncoding = new PreparedByEncoding()));
  return byEncoding;
}

/** A cached body as a 200 in the client's preferred coding, or a 304 when the client already holds it. */
export function cachedReply(req: Request, entry: CachedBody, shape: ReplyShape): Reply {
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  const byEncoding = entry.firstShape === shape ? (entry.firstReplies as PreparedByEncoding) : repliesFor(entry, shape);
  const prepared =
    encoding === 'br'
      ? (byEncoding.br ??= prepare(entry, shape, encoding))
      : encoding === 'gzip'
        ? (byEncoding.gzip ??= prepare(entry, shape, encoding))
        : (byEncoding.identity ??= prepare(entry, shape, encoding));
  const ifNoneMatch = req.headers['if-none-match'];
  return ifNoneMatch !== undefined && matches(ifNoneMatch, entry) ? prepared.notModified : prepared.ok;
}

/** A JSON route's reply shape. */
export const jsonShape = (headers: Readonly<Record<string, string>>) =>
  new ReplyShape('application/json; charset=utf-8', headers);

/** An uncached JSON reply (health, readiness, problems are built elsewhere). */
export function json(status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}): Reply {
  return {
    status,
    headers: headerList({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }),
    body: JSON.stringify(payload),
  };
}
