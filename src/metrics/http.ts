/**
 * Metrics of the request path, limits and click buffering, on prom-client's default registry (the
 * admin port serves that registry). Children are bound once per label set so the hot path does
 * a map lookup and an increment, nothing more.
 */
import { Counter, Gauge, Histogram } from 'prom-client';

export const httpRequests = new Counter({
  name: 'predictwire_http_requests_total',
  help: 'HTTP requests answered, by route and status code.',
  labelNames: ['route', 'status'] as const,
});

export const httpDuration = new Histogram({
  name: 'predictwire_http_request_duration_seconds',
  help: 'Time from request to reply (handler and any awaited Redis), by route.',
  labelNames: ['route'] as const,
  buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

export const rateLimitRejections = new Counter({
  name: 'predictwire_rate_limit_rejections_total',
  help: 'Requests and connections refused by a limit, by limit name.',
  labelNames: ['limit'] as const,
});

export const authFailures = new Counter({
  name: 'predictwire_auth_failures_total',
  help: 'Advertiser authentication failures, by reason (missing, invalid, blocked, unavailable).',
  labelNames: ['reason'] as const,
});

export const wsConnections = new Gauge({ name: 'predictwire_ws_connections', help: 'Open WebSocket connections.' });

export const wsSubscriptions = new Gauge({ name: 'predictwire_ws_subscriptions', help: 'Topic subscriptions held by open WebSocket connections.' });

export const wsRefused = new Counter({
  name: 'predictwire_ws_refused_total',
  help: 'WebSocket upgrades refused or connections closed by a limit, by reason.',
  labelNames: ['reason'] as const,
});

export const clickBufferSize = new Gauge({ name: 'predictwire_click_buffer_size', help: 'Clicks held in memory, not yet written to Redis.' });

export const clickBufferDropped = new Counter({
  name: 'predictwire_click_buffer_dropped_total',
  help: 'Clicks dropped because the in-memory buffer was full.',
});

const requestChildren = new Map<string, Counter.Internal>();
const durationChildren = new Map<string, Histogram.Internal<'route'>>();

/** Counts one answered request and its duration in seconds. */
export function observeRequest(route: string, status: number, seconds: number): void {
  const key = `${route}|${status}`;
  let counter = requestChildren.get(key);
  if (!counter) requestChildren.set(key, (counter = httpRequests.labels(route, String(status))));
  counter.inc();
  let hist = durationChildren.get(route);
  if (!hist) durationChildren.set(route, (hist = httpDuration.labels(route)));
  hist.observe(seconds);
}
