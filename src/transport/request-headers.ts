/**
 * Reads a route's declared request headers from uWS into a `RequestHeaders` object.
 *
 * Hand-written for the hot path: every route's object comes from the one literal below, so all
 * requests' headers share one hidden class and every `req.headers[...]` read in the handlers is
 * monomorphic; names are passed to uWS as ArrayBuffers (a string name would be encoded on every
 * call, and a Buffer is a view uWS must first resolve to its buffer);
 * and a header the route does not declare costs nothing.
 */
import type { HttpRequest } from 'uWebSockets.js';
import { bytesOf, REQUEST_HEADERS, type RequestHeaderName, type RequestHeaders } from './types.js';

/** Per route: each of REQUEST_HEADERS as bytes when the route reads it, else undefined. */
type Declared = readonly (ArrayBuffer | undefined)[];

const read = (req: HttpRequest, name: ArrayBuffer | undefined): string | undefined => {
  if (name === undefined) return undefined;
  const value = req.getHeader(name);
  return value === '' ? undefined : value;
};

/** A reader of the headers in `reads` (all others are left undefined). */
export function headerReader(reads: readonly RequestHeaderName[]): (req: HttpRequest) => RequestHeaders {
  const n: Declared = REQUEST_HEADERS.map((name) => (reads.includes(name) ? bytesOf(name) : undefined));
  // Keys in REQUEST_HEADERS order (test/unit/request-headers.test.ts holds the two together).
  return (req) => ({
    'x-request-id': read(req, n[0]),
    'x-forwarded-for': read(req, n[1]),
    'if-none-match': read(req, n[2]),
    'accept-encoding': read(req, n[3]),
    'x-advertiser-id': read(req, n[4]),
    'user-agent': read(req, n[5]),
    'accept-language': read(req, n[6]),
    'x-api-key': read(req, n[7]),
    purpose: read(req, n[8]),
    'sec-purpose': read(req, n[9]),
    'x-moz': read(req, n[10]),
    'cf-ipcountry': read(req, n[11]),
    'cf-region-code': read(req, n[12]),
    'cloudfront-viewer-country': read(req, n[13]),
    'cloudfront-viewer-country-region': read(req, n[14]),
    'fastly-geo-country': read(req, n[15]),
    'fastly-geo-region': read(req, n[16]),
    accept: read(req, n[17]),
  });
}
