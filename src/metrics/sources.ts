/**
 * Prometheus metrics of the real-source path, on prom-client's default registry (served on the
 * admin port): refresh outcomes, durations and failure reasons per snapshot, the current failure
 * streak, items dropped by class, upstream request latency and outcome per upstream (each HTTP
 * client is one: kalshi, polymarket-gamma, -clob, -data, odds-api, ecb), circuit-breaker state per
 * upstream and the odds provider's credits, which only the process that spends them reports.
 */
import { Counter, Gauge, Histogram } from 'prom-client';

export const refreshesTotal = new Counter({
  name: 'predictwire_source_refreshes_total',
  help: 'Snapshot refreshes by outcome (written, unchanged, failed, skipped: another refresh in flight)',
  labelNames: ['kind', 'key', 'outcome'] as const,
});

export const refreshFailuresTotal = new Counter({
  name: 'predictwire_source_refresh_failures_total',
  help: 'Failed snapshot refreshes by reason (quality, http, timeout, shape, quota, backoff, other); the last good snapshot stayed',
  labelNames: ['kind', 'key', 'reason'] as const,
});

export const failureStreak = new Gauge({
  name: 'predictwire_source_failure_streak',
  help: 'Consecutive failed refreshes of a snapshot (0 after a good one)',
  labelNames: ['kind', 'key'] as const,
});

export const itemsDropped = new Gauge({
  name: 'predictwire_source_items_dropped',
  help: 'Items (markets, quotes, lines, books) left out, held or lost in the last good refresh of a snapshot, by class (docs/sources.md)',
  labelNames: ['kind', 'key', 'class'] as const,
});

export const itemsDroppedTotal = new Counter({
  name: 'predictwire_source_items_dropped_total',
  help: 'Items that started being dropped, held or lost (counted once per streak), by class',
  labelNames: ['kind', 'key', 'class'] as const,
});

export const circuitOpen = new Gauge({
  name: 'predictwire_upstream_circuit_open',
  help: '1 while the circuit breaker of an upstream is open (no calls until its backoff lapses)',
  labelNames: ['upstream'] as const,
});

// Labelled so a process that never called the provider (an API process) reports nothing, not 0.
export const oddsCreditsRemaining = new Gauge({
  name: 'predictwire_odds_api_credits_remaining',
  help: 'x-requests-remaining as the odds provider last reported it to this process (the worker that spends the credits)',
  labelNames: ['upstream'] as const,
});

export const upstreamRequestSeconds = new Histogram({
  name: 'predictwire_upstream_request_seconds',
  help: 'Upstream HTTP requests by outcome (ok, http_4xx, http_429, http_5xx, timeout, network, quota, backoff): one per attempt, retries included',
  labelNames: ['upstream', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const refreshSeconds = new Histogram({
  name: 'predictwire_source_refresh_seconds',
  help: 'Snapshot refresh duration (fetch, gate and write) by outcome (written, unchanged, failed)',
  labelNames: ['kind', 'key', 'outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
});
