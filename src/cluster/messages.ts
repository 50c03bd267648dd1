/**
 * What an API worker and its primary say to each other over the IPC channel of `fork`. Only our
 * own processes are at either end, so a message is checked for its tag alone.
 */
import type { Registry } from 'prom-client';

/** prom-client's JSON form of one process's registry, as `AggregatorRegistry.aggregate` takes it. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Worker → primary. */
export type ToPrimary =
  /** The worker has its data and may listen once the others have theirs (answered by `listen`). */
  | { t: 'ready' }
  /** The worker's uWS app listens: the start succeeded. */
  | { t: 'listening' }
  /** May `address` open one more WebSocket (at most `max` across the workers)? Answered by `reserved`. */
  | { t: 'reserve'; id: number; address: string; max: number }
  | { t: 'release'; address: string }
  /** How many WebSocket connections does the whole API hold now? Answered by `count`. */
  | { t: 'count'; id: number }
  /** The answer to `collect`. */
  | { t: 'metrics'; id: number; metrics: MetricsJson }
  /** The worker's event loop runs (every HEARTBEAT_MS, heartbeat.ts). */
  | { t: 'beat' };

/** Primary → worker. */
export type ToWorker =
  | { t: 'reserved'; id: number; ok: boolean }
  /** `address` now holds `n` WebSocket slots across the workers (sent to every worker on each change). */
  | { t: 'slots'; address: string; n: number }
  /** Every worker of the start is ready: listen now. */
  | { t: 'listen' }
  /** The answer to the worker's `count`: the whole API's WebSocket connections now, for /readyz. */
  | { t: 'count'; id: number; n: number }
  /** Send your registry's metrics (`metrics`). */
  | { t: 'collect'; id: number };

/** Set on a forked API worker: its index, from 1. */
export const WORKER_INDEX_ENV = 'PW_API_WORKER';

/** True for a message of this protocol with tag `t` (other IPC traffic is ignored). */
export function isMessage<M extends { t: string }, T extends M['t']>(msg: unknown, t: T): msg is Extract<M, { t: T }> {
  return typeof msg === 'object' && msg !== null && (msg as { t?: unknown }).t === t;
}
