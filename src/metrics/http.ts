/**
 * Metrics of the request path, limits and click buffering, on prom-client's default registry (the
 * admin port serves that registry).
 */
import { Counter, Gauge, register, type Metric } from 'prom-client';

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

// Summed over API workers like the connections, so the two compare: each worker has its own cap.
export const wsMaxConnections = new Gauge({
  name: 'predictwire_ws_max_connections',
  help: 'WebSocket connections this process admits in all (WS_MAX_CONNECTIONS, or half its open-file limit); upgrades beyond it get 503.',
});

export const wsSubscriptions = new Gauge({
  name: 'predictwire_ws_subscriptions',
  help: 'Topic subscriptions held by open WebSocket connections.',
});

export const wsRefused = new Counter({
  name: 'predictwire_ws_refused_total',
  help: 'WebSocket upgrades refused or connections closed by a limit, by reason.',
  labelNames: ['reason'] as const,
});

export const clickBufferSize = new Gauge({
  name: 'predictwire_click_buffer_size',
  help: 'Clicks held in memory, not yet written to Redis.',
});

export const clickBufferDropped = new Counter({
  name: 'predictwire_click_buffer_dropped_total',
  help: 'Clicks lost: the in-memory buffer full, or neither written to Redis nor spilled to the data folder at a stop.',
});

let impressionQueue: { size: number; dropped: number } | undefined;

// The queue counts itself; these read it at scrape time, off the impression path.
new Gauge({
  name: 'predictwire_impression_queue_size',
  help: 'Reported impressions held in memory, not yet written to Redis.',
  collect() {
    this.set(impressionQueue?.size ?? 0);
  },
});

new Counter({
  name: 'predictwire_impressions_dropped_total',
  help: 'Reported impressions lost: the in-memory queue full, or neither written to Redis nor spilled to the data folder at a stop.',
  collect() {
    this.reset();
    this.inc(impressionQueue?.dropped ?? 0);
  },
});

/** Reports the impression queue's size and drops on /metrics. */
export function exposeImpressionQueue(queue: { size: number; dropped: number }): void {
  impressionQueue = queue;
}

export const postbacks = new Counter({
  name: 'predictwire_postbacks_total',
  help: 'Operator postbacks, by outcome: counted, duplicate (a replay), queued (Redis away; counted when written), unknown_click, click_expired, invalid_signature, malformed, blocked, unavailable (no secrets loaded yet: answered 503), dropped (the queue full: answered 503; or nowhere to spill at stop).',
  labelNames: ['outcome'] as const,
});

export const postbackBufferSize = new Gauge({
  name: 'predictwire_postback_buffer_size',
  help: 'Postbacks held in memory while Redis is away, not yet counted.',
});

/** Upper bounds (seconds) of the request-duration histogram buckets. */
const BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteStats {
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

const routes = new Map<string, RouteStats>();

/**
 * Counts one answered request and its duration in seconds. Hand-written on purpose: a prom-client
 * counter and histogram cost about a microsecond each per call here (label hashing), too much for
 * a cached widget GET; this is a map lookup and a few increments, and the registry reads the
 * totals only when scraped (below).
 */
export function observeRequest(route: string, status: number, seconds: number): void {
  let stats = routes.get(route);
  if (!stats)
    routes.set(
      route,
      (stats = { byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 }),
    );
  stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  let i = 0;
  while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
  stats.buckets[i]!++;
  stats.sum += seconds;
  stats.count++;
}

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric the default registry reads from `values()` at scrape time. */
function collected(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): void {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
    reset: () => routes.clear(),
  };
  register.registerMetric(metric as unknown as Metric);
}

collected('predictwire_http_requests_total', 'HTTP requests answered, by route and status code.', 'counter', () =>
  [...routes].flatMap(([route, s]) => [...s.byStatus].map(([status, value]) => ({ value, labels: { route, status } }))),
);

collected(
  'predictwire_http_request_duration_seconds',
  'Time from request to reply (handler and any awaited Redis), by route.',
  'histogram',
  () =>
    [...routes].flatMap(([route, s]): Sample[] => {
      let cumulative = 0;
      const buckets = BUCKETS.map((le, i) => {
        cumulative += s.buckets[i]!;
        return {
          value: cumulative,
          labels: { le, route },
          metricName: 'predictwire_http_request_duration_seconds_bucket',
        };
      });
      return [
        ...buckets,
        {
          value: s.count,
          labels: { le: '+Inf', route },
          metricName: 'predictwire_http_request_duration_seconds_bucket',
        },
        { value: s.sum, labels: { route }, metricName: 'predictwire_http_request_duration_seconds_sum' },
        { value: s.count, labels: { route }, metricName: 'predictwire_http_request_duration_seconds_count' },
      ];
    }),
);

const advertiserRequests = new Map<string, number>();

/** Counts one authenticated request of advertiser `id` (a map increment; read when scraped). */
export function countAdvertiserRequest(id: string): void {
  advertiserRequests.set(id, (advertiserRequests.get(id) ?? 0) + 1);
}

// One series per registered advertiser that made a request: bounded by the advertisers there are.
collected(
  'predictwire_advertiser_requests_total',
  'Authenticated /advertiser requests, by advertiser id.',
  'counter',
  () => [...advertiserRequests].map(([advertiser, value]) => ({ value, labels: { advertiser } })),
);
