/**
 * The admin listener every process runs beside its real work: `/metrics` (prom-client's default
 * registry, so any module's metrics appear without wiring) and `/healthz`. It binds to loopback by
 * default and is never the public port: metrics reveal traffic and must not be scraped by strangers.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, register } from 'prom-client';
import type { Logger } from '../runtime/log.js';

/** What `/healthz` reports: `ok: false` answers 503 so a container health check restarts the process. */
export type HealthCheck = () => { ok: boolean; [detail: string]: unknown };

export interface AdminServer {
  port: number;
  close(): Promise<void>;
}

/** Process metrics (CPU, memory, event loop) on the default registry, once per process whoever asks first (registering twice throws). */
export function ensureDefaultMetrics(): void {
  if (!register.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics();
}

/**
 * Serves the admin endpoints on `host:port`. Port 0 means no listener. A port already taken is
 * logged and skipped rather than fatal: the service itself matters more than its metrics.
 * `metrics` gives the `/metrics` text: the default registry's, or (API primary) every worker's.
 */
export async function startAdminServer(
  host: string,
  port: number,
  log: Logger,
  health: HealthCheck = () => ({ ok: true }),
  metrics: () => Promise<string> = () => register.metrics(),
): Promise<AdminServer | undefined> {
  if (port === 0) return undefined;
  ensureDefaultMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      metrics().then(
        (text) => res.writeHead(200, { 'content-type': register.contentType }).end(text),
        (err: unknown) => {
          log.error({ err }, 'collecting metrics failed');
          res.writeHead(500).end();
        },
      );
    } else if (path === '/healthz') {
      const status = health();
      // The pid tells a launcher whether this port is its own child's (the banner lists only those).
      res
        .writeHead(status.ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: status.ok ? 'ok' : 'unhealthy', ...status, ok: undefined, pid: process.pid }));
    } else {
      res.writeHead(404).end();
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (err) {
    log.error(
      { err: (err as Error).message, host, port },
      'admin port unavailable: no /metrics or /healthz for this process',
    );
    return undefined;
  }
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  log.info({ host, port: bound }, 'admin listening (/metrics, /healthz)');
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a scraper's keep-alive connection must not hold shutdown
      }),
  };
}
