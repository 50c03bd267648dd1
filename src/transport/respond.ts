/**
 * Reply helpers shared by routes: JSON bodies with ETag/304, CORS, cache headers, content coding.
 *
 * A body is a `Representation` served through a `ReplyShape` (a route's fixed headers). For each
 * body and shape, the replies (200 per content coding, and 304) are put together on first use and
 * kept with the body, so serving one is a field read: no header object, spread or string is built
 * per request.
 */
import { compress, MIN_COMPRESS_BYTES, preferredEncoding, type Encoding } from './compression.js';
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

/**
 * A body as transport serves it (a representation, in HTTP's words): the bytes and validators given
 * by the layer that built them (serve/, which stands above transport and imports this class), and
 * transport's own replies for them, made on first use: the compressed copies and, per reply shape,
 * the 200 in each coding and the 304. Transport defines the type it accepts rather than model/
 * holding a plain "bytes and validators" record, so that the replies sit on the object the route
 * passes (a field read, no lookup) and stay private to transport.
 */
export class Representation {
  /** Quoted strong entity tag of the uncompressed bytes. */
  readonly etag: string;
  /** The tag without its closing quote: a compressed copy's tag is this plus its coding. */
  readonly tagStem: string;
  /** The HTTP date of when the data last changed. */
  readonly lastModified: string;
  /** Compressed copies, made the first time a client accepts them. */
  private readonly encoded: { br?: Buffer; gzip?: Buffer } = {};
  /**
   * The replies of the first shape this body is served through: nearly every body is served in one
   * shape, read without a Map lookup. Any other shape's are in `otherShapes`, keyed by identity.
   */
  private firstShape: ReplyShape | undefined = undefined;
  private firstReplies: PreparedByEncoding | undefined = undefined;
  private otherShapes: Map<ReplyShape, PreparedByEncoding> | undefined = undefined;

  /**
   * @param body the bytes, never changed afterwards.
   * @param tag an opaque strong validator of the bytes (the same bytes, the same tag, in every
   *   process), without quotes.
   * @param lastModified when the data last changed.
   */
  constructor(
    readonly body: Buffer,
    tag: string,
    lastModified: Date,
  ) {
    this.tagStem = `"${tag}`;
    this.etag = `${this.tagStem}"`;
    this.lastModified = lastModified.toUTCString();
  }

  /** This body as a 200 in the client's preferred coding, or a 304 when the client already holds it. */
  reply(req: Request, shape: ReplyShape): Reply {
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    const byEncoding = this.firstShape === shape ? this.firstReplies! : this.repliesFor(shape);
    const prepared =
      encoding === 'br'
        ? (byEncoding.br ??= this.prepare(shape, encoding))
        : encoding === 'gzip'
          ? (byEncoding.gzip ??= this.prepare(shape, encoding))
          : (byEncoding.identity ??= this.prepare(shape, encoding));
    const ifNoneMatch = req.headers['if-none-match'];
    return ifNoneMatch !== undefined && this.matches(ifNoneMatch) ? prepared.notModified : prepared.ok;
  }

  /** True when If-None-Match names this body in any coding (its tags share a stem), weak or strong, or is "*". */
  private matches(ifNoneMatch: string): boolean {
    return ifNoneMatch.includes(this.tagStem) || ifNoneMatch.trim() === '*';
  }

  /** The replies for `shape` when it is not the body's first shape (or there is none yet), made on first use. */
  private repliesFor(shape: ReplyShape): PreparedByEncoding {
    if (this.firstShape === undefined) {
      this.firstShape = shape;
      return (this.firstReplies = new PreparedByEncoding());
    }
    this.otherShapes ??= new Map();
    let byEncoding = this.otherShapes.get(shape);
    if (!byEncoding) this.otherShapes.set(shape, (byEncoding = new PreparedByEncoding()));
    return byEncoding;
  }

  private prepare(shape: ReplyShape, encoding: Encoding): Prepared {
    let body = this.body;
    let etag = this.etag;
    const coding: string[] = [];
    if (encoding !== 'identity' && body.length >= MIN_COMPRESS_BYTES) {
      const compressed = (this.encoded[encoding] ??= compress(this.body, encoding, shape.maxCompression));
      // A body too small to gain is sent as it is (its tag and coding stay identity's).
      if (compressed.length < body.length) {
        body = compressed;
        etag = `${this.tagStem}-${encoding}"`;
        coding.push('content-encoding', encoding);
      }
    }
    const validators = ['etag', etag, 'last-modified', this.lastModified];
    const okHeaders = ['content-type', shape.contentType, ...coding, ...validators, ...shape.headers];
    const notModifiedHeaders = [...validators, ...shape.headers];
    return {
      ok: { status: 200, headers: okHeaders, body, head: packHead(200, okHeaders) },
      // `body: undefined` keeps every prepared reply one shape (the server reads them all).
      notModified: {
        status: 304,
        headers: notModifiedHeaders,
        body: undefined,
        head: packHead(304, notModifiedHeaders),
      },
    };
  }
}

/** A body as a 200 in the client's preferred coding, or a 304 when the client already holds it. */
export const cachedReply = (req: Request, body: Representation, shape: ReplyShape): Reply => body.reply(req, shape);

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
