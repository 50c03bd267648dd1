/**
 * uWebSockets.js binding. Translates a uWS request into a `Request`, runs the dispatcher, writes
 * the `Reply` corked. No business logic lives here.
 */
import { App, us_listen_socket_close, us_socket_local_port, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Logger } from '../log.js';
import { invalidParameters, Problem } from './problem.js';
import { requestId } from './request-id.js';
import { CORS_HEADERS } from './respond.js';
import type { Handler, Reply, Request } from './types.js';

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK', 204: '204 No Content', 302: '302 Found', 304: '304 Not Modified', 400: '400 Bad Request',
  401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found', 405: '405 Method Not Allowed',
  410: '410 Gone', 413: '413 Payload Too Large', 429: '429 Too Many Requests', 500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/** Turns a thrown error into a reply; anything that is not a Problem is our fault (500) and logged. */
export function problemReply(err: unknown, log: Logger, req?: Request): Reply {
  const problem = err instanceof Problem ? err : new Problem(500, 'internal_error', 'The server failed to answer this request.');
  if (!(err instanceof Problem)) log.error({ err, path: req?.path, request_id: req?.id }, 'unhandled error in handler');
  return {
    status: problem.status,
    // CORS on errors too: a widget in a browser must be able to read why it failed.
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...CORS_HEADERS, ...problem.headers },
    body: JSON.stringify(req?.id ? { ...problem.toJSON(), request_id: req.id } : problem),
  };
}

function write(res: HttpResponse, request: Request, reply: Reply, closeConnection = false): void {
  res.cork(() => {
    res.writeStatus(STATUS_TEXT[reply.status] ?? String(reply.status));
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.writeHeader(k, v);
    if (request.id) res.writeHeader('x-request-id', request.id);
    const body = reply.body ?? '';
    // 204 and 304 carry no body and no Content-Length (a 304's would have to match the 200's).
    // (Only problems close the connection, and they always have a body.)
    if (reply.status === 204 || reply.status === 304) res.endWithoutBody();
    // uWS does not close after endWithoutBody, so a HEAD that must close ends with an empty body.
    else if (request.method === 'HEAD' && closeConnection) res.end('', true);
    else if (request.method === 'HEAD') res.endWithoutBody(Buffer.byteLength(body));
    else res.end(body, closeConnection);
  });
}

// A body on GET/HEAD has no meaning here, and a proxy in front may frame it differently than we
// do (request smuggling): refuse it and close the connection, whose framing is now suspect.
const BODY_ON_GET = invalidParameters([{ param: 'content-length', message: 'GET and HEAD requests must not carry Content-Length or Transfer-Encoding' }]);

export interface HttpServer {
  app: TemplatedApp;
  port: number;
  close(): void;
}

/**
 * Serves `dispatch` on every path and method. `configure` may add WebSocket routes first (they must
 * be registered before the catch-all).
 */
export function listenHttp(
  host: string,
  port: number,
  dispatch: Handler,
  log: Logger,
  configure?: (app: TemplatedApp) => void,
): Promise<HttpServer> {
  const app = App();
  configure?.(app);
  app.any('/*', (res, req) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const headers: Record<string, string> = {};
    let framed = false;
    req.forEach((k, v) => {
      if (k === 'content-length' || k === 'transfer-encoding') framed = true;
      headers[k] = v;
    });
    const request: Request = {
      method: req.getCaseSensitiveMethod().toUpperCase(),
      path: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
      id: requestId(headers['x-request-id']),
    };
    if (framed && (request.method === 'GET' || request.method === 'HEAD')) {
      return write(res, request, problemReply(BODY_ON_GET, log, request), true);
    }
    let result: Reply | Promise<Reply>;
    try {
      result = dispatch(request);
    } catch (err) {
      result = problemReply(err, log, request);
    }
    if (result instanceof Promise) {
      result
        .catch((err: unknown) => problemReply(err, log, request))
        .then((reply) => {
          if (!aborted) write(res, request, reply);
        });
    } else {
      write(res, request, result);
    }
  });
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`could not listen on ${host}:${port}`));
      resolve({
        app,
        port: us_socket_local_port(socket),
        close: () => {
          us_listen_socket_close(socket);
          // Then every open connection, keep-alive HTTP included: no request is served after Redis is gone.
          app.close();
        },
      });
    });
  });
}
