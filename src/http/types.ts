/** Transport-neutral request and reply: handlers see these, never a uWS object. */

export interface Request {
  /** Upper-case method. */
  method: string;
  path: string;
  /** Raw query string without the leading "?". */
  query: string;
  /**
   * Lower-case header names; only those the route declares it reads (`Route.reads`), read before
   * any await (uWS rule). An absent header is undefined here.
   */
  headers: Readonly<Record<string, string | undefined>>;
  /** The socket peer's address as text (IPv4, or IPv6 without brackets). */
  remoteAddress: string;
  /** X-Request-Id: the caller's when valid, else one we made; echoed and logged. */
  id?: string;
}

/**
 * Response headers as flat name/value pairs (`[name0, value0, name1, value1, …]`), names lower-case.
 * Lists made once per body are UTF-8 bytes already (`encodeHeaders`), so uWS copies them as they are.
 */
export type HeaderList = readonly (string | Buffer)[];

export interface Reply {
  status: number;
  headers?: HeaderList;
  body?: string | Buffer;
}

export type Handler = (req: Request) => Reply | Promise<Reply>;

/** Turns a header record into a `HeaderList` (done once per route or reply shape, not per request). */
export function headerList(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).flat();
}

/** The same list as bytes: for lists written many times, which uWS would otherwise encode each time. */
export function encodeHeaders(list: readonly (string | Buffer)[]): HeaderList {
  return list.map((h) => (typeof h === 'string' ? Buffer.from(h) : h));
}
