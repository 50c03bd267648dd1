/**
 * uWebSockets.js binding. Registers each route on uWS's own router, translates a uWS request into a
 * `Request` (reading only the headers the route declares), runs the route's handler and writes the
 * `Reply`. No business logic lives here.
 *
 * This is the hot path of every widget request, so it is written for speed: no header object is
 * copied whole, a synchronous reply is written at once (uWS corks the handler's own writes; only a
 * reply that comes later needs `cork` and `onAborted`), a cached reply's status line and headers
 * arrive packed once per body version (respond.ts) and go out in one call, and the peer address is
 * asked of uWS only when read (uws-request.ts).
 */
import {
  App,
  us_listen_socket_close,
  us_socket_local_port,
  type HttpRequest,
  type HttpResponse,
  type TemplatedApp,
  type us_listen_socket,
} from 'uWebSockets.js';
import type { Logger } from '../runtime/log.js';
import { invalidParameters, Problem } from '../model/problem.js';
import { givenRequestId } from './request-id.js';
import { CORS_HEADERS } from './respond.js';
import { headerReader } from './request-headers.js';
import { UwsRequest } from './uws-request.js';
import {
  bytesOf,
  headerList,
  STATUS_TEXT,
  type Handler,
  type Reply,
  type Request,
  type RequestHeaderName,
} from './types.js';

const PROBLEM_HEADERS = { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...CORS_HEADERS };

/** Turns a thrown error into a reply; anything that is not a Problem is our fault (500) and logged. */
export function problemReply(
  err: unknown,
  log: Logger,
  req?: Pick<Request, 'id'> & Partial<Pick<Request, 'path'>>,
): Reply {
  const problem =
    err instanceof Problem ? err : new Problem(500, 'internal_error', 'The server failed to answer this request.');
  if (!(err instanceof Problem)) log.error({ err, path: req?.path, request_id: req?.id }, 'unhandled error in handler');
  return {
    status: problem.status,
    // CORS on errors too: a widget in a browser must be able to read why it failed.
    headers: headerList({ ...PROBLEM_HEADERS, ...problem.headers }),
    body: JSON.stringify(req?.id ? { ...problem.toJSON(), request_id: req.id } : problem),
  };
}

/** Writes a reply's status line and headers (the body is the caller's). */
export function writeHead(res: HttpResponse, reply: Reply): void {
  if (reply.head) {
    // uWS writes a status as "HTTP/1.1 " + text + CRLF without looking inside, so a prepared head
    // (status line and header lines, checked for line breaks when packed) goes in one call instead
    // of one per header: each call into uWS costs more than the bytes it copies.
    res.writeStatus(reply.head);
    return;
  }
  // uWS answers 200 OK unless told otherwise.
  if (reply.status !== 200) res.writeStatus(STATUS_TEXT[reply.status] ?? String(reply.status));
  const headers = reply.headers;
  if (headers) for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i]!, headers[i + 1]!);
}

function writeReply(res: HttpResponse, request: UwsRequest, reply: Reply, closeConnection: boolean): void {
  writeHead(res, reply);
  res.writeHeader(REQUEST_ID, request.idForHeader());
  const own = request.ownHeaders;
  if (own) res.writeHeader(own[0], own[1]).writeHeader(own[2], own[3]);
  const body = reply.body ?? '';
  // 204 and 304 carry no body and no Content-Length (a 304's would have to match the 200's).
  // (Only problems close the connection, and they always have a body.)
  if (reply.status === 204 || reply.status === 304) res.endWithoutBody();
  // uWS does not close after endWithoutBody, so a HEAD that must close ends with an empty body.
  else if (request.method === 'HEAD' && closeConnection) res.end('', true);
  else if (request.method === 'HEAD')
    res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  else res.end(body, closeConnection);
}

// A body on GET/HEAD has no meaning here, and a proxy in front may frame it differently than we
// do (request smuggling): refuse it and close the connection, whose framing is now suspect.
const BODY_ON_GET = invalidParameters([
  { param: 'content-length', message: 'GET and HEAD requests must not carry Content-Length or Transfer-Encoding' },
]);

/** One path served by a handler. */
export interface Route {
  /** A uWS pattern: a fixed path, or one ending in a `:name` segment. */
  pattern: string;
  /** Lower-case names of the request headers the handler reads; no other is read. */
  reads: readonly RequestHeaderName[];
  handler: Handler;
}

export interface HttpServer {
  app: TemplatedApp;
  port: number;
  close(): void;
}

const ignore = () => {};
const CONTENT_LENGTH = bytesOf('content-length');
const TRANSFER_ENCODING = bytesOf('transfer-encoding');
const REQUEST_ID = bytesOf('x-request-id');

/**
 * The uWS handler of a route: reads the request, runs `handler`, writes its reply. `method` and
 * `path` are known when uWS routed by them (a GET handler of a fixed path): then they are not read
 * from the request, which saves two calls into uWS per request.
 */
function serve(
  handler: Handler,
  reads: readonly RequestHeaderName[],
  log: Logger,
  method?: 'GET' | 'HEAD' | 'OPTIONS',
  path?: string,
) {
  const readHeaders = headerReader(reads);
  return (res: HttpResponse, req: HttpRequest) => {
    const headers = readHeaders(req);
    const url = path ?? req.getUrl();
    const request = new UwsRequest(
      method ?? req.getCaseSensitiveMethod().toUpperCase(),
      // "/v1/widgets/broad/" is "/v1/widgets/broad".
      url.length > 1 && url.charCodeAt(url.length - 1) === 47 ? url.slice(0, -1) : url,
      req.getQuery() ?? '',
      headers,
      res,
      givenRequestId(headers['x-request-id']),
    );
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      (req.getHeader(CONTENT_LENGTH) !== '' || req.getHeader(TRANSFER_ENCODING) !== '')
    ) {
      request.settle(false);
      return writeReply(res, request, problemReply(BODY_ON_GET, log, request), true);
    }
    let result: Reply | Promise<Reply>;
    try {
      result = handler(request);
    } catch (err) {
      result = problemReply(err, log, request);
    }
    request.settle(result instanceof Promise);
    if (!(result instanceof Promise)) {
      // uWS counts a response ended by endWithoutBody(length) (HEAD) as unanswered unless it has
      // an abort handler.
      if (request.method === 'HEAD') res.onAborted(ignore);
      return writeReply(res, request, result, false);
    }
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    void result
      .catch((err: unknown) => problemReply(err, log, request))
      .then((reply) => {
        if (!aborted) res.cork(() => writeReply(res, request, reply, false));
      });
  };
}

/**
 * Serves `routes` (each also with a trailing slash) and `fallback` on every other path, on uWS's
 * router. `configure` may add WebSocket routes first.
 */
export function listenHttp(
  host: string,
  port: number,
  routes: readonly Route[],
  fallback: Handler,
  log: Logger,
  configure?: (app: TemplatedApp) => void,
): Promise<HttpServer> {
  const app = App();
  configure?.(app);
  for (const route of routes) {
    // A fixed path is the request's path; a pattern with a parameter is read from the request.
    const path = route.pattern.includes(':') ? undefined : route.pattern;
    for (const pattern of [route.pattern, `${route.pattern}/`]) {
      app
        .get(pattern, serve(route.handler, route.reads, log, 'GET', path))
        .head(pattern, serve(route.handler, route.reads, log, 'HEAD', path))
        .options(pattern, serve(route.handler, route.reads, log, 'OPTIONS', path))
        .any(pattern, serve(route.handler, route.reads, log, undefined, path));
    }
  }
  app.any('/*', serve(fallback, ['x-request-id'], log));
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
