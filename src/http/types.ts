/** Transport-neutral request and reply: handlers see these, never a uWS object. */

export interface Request {
  /** Upper-case method. */
  method: string;
  path: string;
  /** Raw query string without the leading "?". */
  query: string;
  /** Lower-case header names; read in full before any await (uWS rule). */
  headers: Readonly<Record<string, string>>;
  /** The socket peer's address as text (IPv4, or IPv6 without brackets). */
  remoteAddress: string;
  /** X-Request-Id: the caller's when valid, else one we made; echoed and logged. */
  id?: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type Handler = (req: Request) => Reply | Promise<Reply>;
