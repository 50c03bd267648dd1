/**
 * Per-request bookkeeping after the reply is known: route metrics for every request, an info line
 * for a sampled share of them (ACCESS_LOG_SAMPLE_RATE), and always one for server errors.
 */
// Imported: Node's global `performance` is a getter, paid on every request.
import { performance } from 'node:perf_hooks';
import type { Logger } from '../runtime/log.js';
import { observeRequest } from '../metrics/http.js';
import type { Reply, Request } from './types.js';

export function accessLogger(log: Logger, sampleRate: number) {
  /** `startMs` is `performance.now()` when the request arrived (a float, no BigInt per request). */
  return (route: string, req: Request, reply: Reply, startMs: number): Reply => {
    const seconds = (performance.now() - startMs) / 1000;
    observeRequest(route, reply.status, seconds);
    if (reply.status >= 500 || Math.random() < sampleRate) {
      const line = {
        request_id: req.id,
        method: req.method,
        path: req.path,
        route,
        status: reply.status,
        ms: Math.round(seconds * 1e6) / 1000,
      };
      if (reply.status >= 500) log.warn(line, 'request');
      else log.info(line, 'request');
    }
    return reply;
  };
}
