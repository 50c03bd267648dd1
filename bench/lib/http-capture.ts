/**
 * One HTTP/1.1 exchange over a plain socket, byte for byte as wrk makes it (request line, Host, the
 * given headers), so the baseline can replay exactly what the server answered to that request.
 */
import { connect } from 'node:net';

export interface CapturedResponse {
  /** Status line after the protocol, e.g. "200 OK". */
  status: string;
  statusCode: number;
  /** Every header in the order and spelling the server wrote. */
  headers: Array<[name: string, value: string]>;
  body: Buffer;
}

/** The request wrk sends for `path` to `host:port` with `headers`. */
export function wrkRequest(host: string, port: number, path: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}:${port}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Parses one complete HTTP/1.1 response (Content-Length framed, as uWS writes it); undefined
 * while `raw` holds less than the whole response.
 */
export function parseHttpResponse(raw: Buffer): CapturedResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.toString('latin1', 0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] ((\d{3})(?: .*)?)$/.exec(statusLine ?? '');
  if (!m) throw new Error(`not an HTTP/1.1 status line: ${statusLine}`);
  const headers = lines.map((l): [string, string] => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon), l.slice(colon + 1).trim()];
  });
  const te = headers.find(([k]) => k.toLowerCase() === 'transfer-encoding');
  if (te) throw new Error(`chunked responses are not replayable here (${te[1]})`);
  const length = Number(headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1] ?? 0);
  if (raw.length < end + 4 + length) return undefined;
  return { status: m[1]!, statusCode: Number(m[2]), headers, body: raw.subarray(end + 4, end + 4 + length) };
}

/** Headers the replaying uWS app must not write itself: uWS adds Date and its mark, and computes Content-Length. */
const ADDED_BY_UWS = new Set(['date', 'uwebsockets', 'content-length']);

/** The headers a baseline replays (everything the application wrote), in order. */
export const replayHeaders = (r: CapturedResponse) => r.headers.filter(([k]) => !ADDED_BY_UWS.has(k.toLowerCase()));

/** The header `name` (any case) of a captured response. */
export const headerOf = (r: CapturedResponse, name: string) => r.headers.find(([k]) => k.toLowerCase() === name)?.[1];

/** Sends `GET path` with exactly `headers` (plus Host) and reads the whole response. */
export function capture(
  port: number,
  path: string,
  headers: Record<string, string>,
  timeoutMs = 10_000,
): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no complete answer to GET ${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.once('connect', () => sock.write(wrkRequest('127.0.0.1', port, path, headers)));
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      try {
        const res = parseHttpResponse(Buffer.concat(chunks));
        if (!res) return;
        clearTimeout(timer);
        sock.destroy();
        resolve({ ...res, body: Buffer.from(res.body) });
      } catch (err) {
        clearTimeout(timer);
        sock.destroy();
        reject(err as Error);
      }
    });
    sock.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
