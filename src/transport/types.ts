/** Transport-neutral request and reply: handlers see these, never a uWS object. */

/** Every request header a route may read (lower case); each route reads only those it declares. */
export const REQUEST_HEADERS = [
  'x-request-id',
  'x-forwarded-for',
  'if-none-match',
  'accept-encoding',
  'x-advertiser-id',
  'user-agent',
  'accept-language',
  'x-api-key',
  'purpose',
  'sec-purpose',
  'x-moz',
  // A trusted CDN's geo headers (geo/cdn-headers.ts; test/unit/request-headers.test.ts holds the two together);
  // read only with TRUST_PROXY and CDN_GEO set.
  'cf-ipcountry',
  'cf-region-code',
  'cloudfront-viewer-country',
  'cloudfront-viewer-country-region',
  'fastly-geo-country',
  'fastly-geo-region',
  // Reports: text/csv asks for CSV.
  'accept',
] as const;

export type RequestHeaderName = (typeof REQUEST_HEADERS)[number];

/** A request's headers by name; absent, or not read by the route, is undefined. */
export type RequestHeaders = Readonly<Partial<Record<RequestHeaderName, string>>>;

export interface Request {
  /** Upper-case method. */
  method: string;
  path: string;
  /** Raw query string without the leading "?". */
  query: string;
  /** Only those the route declares it reads (`Route.reads`), read before any await (uWS rule). */
  headers: RequestHeaders;
  /** The socket peer's address as text (IPv4, or IPv6 without brackets). */
  remoteAddress: string;
  /** X-Request-Id: the caller's when valid, else one we made; echoed and logged. */
  id?: string;
  /**
   * Headers of this request's own written after the reply's (an advertiser's usage): set by a
   * wrapper, so a cached reply's prepared head stays shared.
   */
  ownHeaders?: readonly [name: string, value: string, name2: string, value2: string];
}

/** Response headers as flat name/value pairs (`[name0, value0, name1, value1, …]`), names lower-case. */
export type HeaderList = readonly string[];

export interface Reply {
  status: number;
  headers?: HeaderList;
  body?: string | Buffer;
  /**
   * For a reply served many times: its status line and `headers` as HTTP/1.1 bytes, made once by
   * `packHead`, so the transport can write them in one piece.
   */
  head?: ArrayBuffer;
}

/** Reason phrases of the statuses this API answers. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK',
  202: '202 Accepted',
  204: '204 No Content',
  302: '302 Found',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  410: '410 Gone',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

const CR_OR_LF = /[\r\n]/;

/**
 * `status` and `headers` as the head of an HTTP/1.1 response after "HTTP/1.1 ": the status text,
 * then one "name: value" line per header, CRLF-separated, without the final CRLF.
 * @throws Error when a name or value holds CR or LF (it would split the response).
 */
export function packHead(status: number, headers: HeaderList): ArrayBuffer {
  const lines = [STATUS_TEXT[status] ?? String(status)];
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (CR_OR_LF.test(name) || CR_OR_LF.test(value))
      throw new Error(`header ${JSON.stringify(name)} holds a line break`);
    lines.push(`${name}: ${value}`);
  }
  return bytesOf(lines.join('\r\n'));
}

/** The UTF-8 bytes of `text` in an ArrayBuffer of their own (uWS reads one without resolving a view). */
export const bytesOf = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer as ArrayBuffer;

export type Handler = (req: Request) => Reply | Promise<Reply>;

/** Turns a header record into a `HeaderList` (done once per route or reply shape, not per request). */
export function headerList(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).flat();
}
