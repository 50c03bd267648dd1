/**
 * An API worker's side of the IPC channel to its primary: per-address WebSocket slots reserved at
 * the primary (so a cap holds across workers), granted before its answer while the counts it sends
 * show room to spare (SlotView), the whole API's connection count asked of the primary, this
 * process's metrics whenever the primary collects them, and a heartbeat (heartbeat.ts).
 */
import { register } from 'prom-client';
import { SlotView, type ConnectionLedger } from '../transport/ws/connection-ledger.js';
import { startHeartbeat } from './heartbeat.js';
import { isMessage, type ToPrimary, type ToWorker } from './messages.js';

export interface WorkerLink {
  ledger: ConnectionLedger;
  /** WebSocket connections open or being upgraded on every worker, asked of the primary now. */
  wsConnections(): Promise<number>;
  /** Tells the primary this worker is ready; resolves when the primary says to listen. */
  mayListen(): Promise<void>;
  /** Tells the primary the app listens (until then an exit fails the whole start). */
  listening(): void;
  /** Work to do before answering a metrics collection (fresh snapshot meta, as /readyz reads it). */
  beforeCollect(prepare: () => Promise<unknown>): void;
}

// A closed channel means the primary is gone and we are on our way out: drop the message.
const send = (msg: ToPrimary) => {
  if (process.connected) process.send?.(msg, undefined, undefined, () => {});
};

/** Connects this process (forked with an IPC channel) to its primary, one of `workers` API workers. */
export function linkToPrimary(workers: number): WorkerLink {
  let nextId = 0;
  const view = new SlotView(workers);
  const waiting = new Map<number, (ok: boolean) => void>();
  const counting = new Map<number, (n: number) => void>();
  /** The last count the primary gave: the answer once it is gone (this worker is on its way out). */
  let total = 0;
  let prepare: () => Promise<unknown> = () => Promise.resolve();
  let listen: () => void = () => {};
  startHeartbeat(() => send({ t: 'beat' }));
  process.on('message', (msg: unknown) => {
    if (isMessage<ToWorker, 'reserved'>(msg, 'reserved')) {
      waiting.get(msg.id)?.(msg.ok);
      waiting.delete(msg.id);
    } else if (isMessage<ToWorker, 'slots'>(msg, 'slots')) {
      view.update(msg.address, msg.n);
    } else if (isMessage<ToWorker, 'count'>(msg, 'count')) {
      total = msg.n;
      counting.get(msg.id)?.(msg.n);
      counting.delete(msg.id);
    } else if (isMessage<ToWorker, 'listen'>(msg, 'listen')) {
      listen();
    } else if (isMessage<ToWorker, 'collect'>(msg, 'collect')) {
      void prepare()
        .catch(() => {})
        .then(() => register.getMetricsAsJSON())
        .then((metrics) => send({ t: 'metrics', id: msg.id, metrics }));
    }
  });
  // Without a primary nobody can count an address's connections across workers: refuse new ones.
  process.on('disconnect', () => {
    for (const done of waiting.values()) done(false);
    waiting.clear();
    for (const done of counting.values()) done(total);
    counting.clear();
  });
  return {
    ledger: {
      reserve(address, max, lost) {
        if (!process.connected) return false;
        const id = ++nextId;
        const answer = new Promise<boolean>((resolve) => {
          waiting.set(id, resolve);
          send({ t: 'reserve', id, address, max });
        });
        if (!view.grantNow(address, max)) return answer;
        void answer.then((ok) => {
          view.answered(address);
          if (!ok) lost();
        });
        return true;
      },
      release: (address) => send({ t: 'release', address }),
    },
    // Asked each time: a /readyz right after a change must already see it.
    wsConnections() {
      if (!process.connected) return Promise.resolve(total);
      const id = ++nextId;
      return new Promise((resolve) => {
        counting.set(id, resolve);
        send({ t: 'count', id });
      });
    },
    mayListen: () =>
      new Promise<void>((resolve) => {
        listen = resolve;
        send({ t: 'ready' });
      }),
    listening: () => send({ t: 'listening' }),
    beforeCollect: (fn) => (prepare = fn),
  };
}
