/**
 * The primary's `/metrics`: every worker's registry, collected over IPC and merged with the
 * primary's own by prom-client's `AggregatorRegistry.aggregate` (each metric says how: counters and
 * gauges such as open connections are summed across workers, so the figures are the whole API's).
 */
import type { ChildProcess } from 'node:child_process';
import { AggregatorRegistry, Counter, Gauge, register } from 'prom-client';
import { isMessage, type MetricsJson, type ToPrimary, type ToWorker } from './messages.js';

/** A worker that has not answered in this long is left out of one scrape rather than holding it. */
const COLLECT_TIMEOUT_MS = 2_000;

export const workerRestarts = new Counter({
  name: 'predictwire_api_worker_restarts_total',
  help: 'API workers that exited unasked and were started again by the primary.',
});

/** Gauges the primary reads from its own state at scrape time. */
export function exposeWorkers(
  running: () => number,
  wsByWorker: () => Array<[worker: number, connections: number]>,
): void {
  new Gauge({
    name: 'predictwire_api_workers',
    help: 'API worker processes running under the primary.',
    collect() {
      this.set(running());
    },
  });
  new Gauge({
    name: 'predictwire_api_worker_ws_connections',
    help: 'WebSocket connections open or being upgraded, by API worker (from the shared per-address ledger).',
    labelNames: ['worker'] as const,
    collect() {
      this.reset();
      for (const [worker, n] of wsByWorker()) this.labels(String(worker)).set(n);
    },
  });
}

/** Asks workers for their metrics and merges the answers. */
export class MetricsCollector {
  private nextId = 0;
  private readonly waiting = new Map<number, (metrics: MetricsJson) => void>();

  /** Takes a worker's message; true when it was an answer to `collect`. */
  accept(msg: unknown): boolean {
    if (!isMessage<ToPrimary, 'metrics'>(msg, 'metrics')) return false;
    this.waiting.get(msg.id)?.(msg.metrics);
    this.waiting.delete(msg.id);
    return true;
  }

  /** Prometheus text of the primary's registry and every answering worker's, aggregated. */
  async collect(workers: ChildProcess[]): Promise<string> {
    const answers = await Promise.all(workers.map((w) => this.ask(w)));
    const own = await register.getMetricsAsJSON();
    return AggregatorRegistry.aggregate([own, ...answers.filter((a): a is MetricsJson => a !== undefined)]).metrics();
  }

  private ask(worker: ChildProcess): Promise<MetricsJson | undefined> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const done = (metrics: MetricsJson | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(metrics);
      };
      const timer = setTimeout(() => done(undefined), COLLECT_TIMEOUT_MS);
      this.waiting.set(id, done);
      const msg: ToWorker = { t: 'collect', id };
      if (!worker.connected) return done(undefined);
      worker.send(msg, (err) => err && done(undefined));
    });
  }
}
