/**
 * API_WORKERS above 1: this process is the primary. It forks that many API workers (this same entry
 * script with the same node arguments: tsx in development, plain node on dist/), which all listen on
 * PORT; uWS sets SO_REUSEPORT on Linux, so the kernel spreads connections over them. The primary
 * serves no traffic. It restarts a worker that dies or hangs (no heartbeat: heartbeat.ts), relays SIGTERM/SIGINT (each worker drains as a
 * single API process would), keeps the per-address WebSocket slots of all workers, and alone serves
 * the admin port, with every worker's metrics.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Config } from '../config.js';
import { exitWithMe } from '../runtime/parent-watch.js';
import { freePort } from '../runtime/free-port.js';
import { ensureLocationTable } from '../geo/location-db.js';
import { supervise, type Supervised } from '../runtime/supervise.js';
import type { Logger } from '../runtime/log.js';
import { startAdminServer } from '../metrics/admin-server.js';
import { SlotCounts } from '../transport/ws/connection-ledger.js';
import { HangWatch } from './heartbeat.js';
import { isMessage, WORKER_INDEX_ENV, type ToPrimary, type ToWorker } from './messages.js';
import { exposeWorkers, MetricsCollector, workerRestarts } from './metrics.js';

interface Running {
  child: ChildProcess;
  /** Its key in the slot ledger: one per process, so a restarted worker starts from nothing. */
  holder: number;
}

const tell = (child: ChildProcess, msg: ToWorker) => {
  if (child.connected) child.send(msg, () => {}); // a worker that just died: nothing to tell
};

/**
 * Starts `config.apiWorkers` workers, in parallel, and resolves once every one listens. A worker that exits before it ever listened fails
 * the start, as a single API process would; after that, exits are restarted with a backoff.
 */
export async function startPrimary(config: Config, log: Logger): Promise<{ stop(): Promise<void>; drainMs: number }> {
  const slots = new SlotCounts();
  const collector = new MetricsCollector();
  const running = new Map<number, Running>();
  const firstListen = new Map<number, { resolve(): void; reject(err: Error): void }>();
  /** Workers of the start that have their data; they all listen at once (null: the start is over). */
  let readyAtStart: Set<ChildProcess> | null = new Set();
  let port = config.port;
  let spawned = 0;
  const hangs = new HangWatch(config.hangSeconds * 1000, (child, silentMs) => {
    log.error(
      { pid: child.pid, silent_seconds: Math.round(silentMs / 1000) },
      'api worker hung (no heartbeat); killing it',
    );
    child.kill('SIGKILL'); // its supervisor restarts it, as after a crash
  });
  hangs.start();

  /** Tells every worker how many slots `address` holds now (their SlotView). */
  const tellCount = (address: string) => {
    const n = slots.of(address);
    for (const { child } of running.values()) tell(child, { t: 'slots', address, n });
  };

  const forkWorker = (index: number): ChildProcess => {
    const holder = ++spawned;
    const child = fork(process.argv[1]!, process.argv.slice(2), {
      execArgv: process.execArgv,
      // Its own process group: a terminal's Ctrl-C reaches the primary only, which relays it once.
      detached: true,
      env: {
        ...process.env,
        [WORKER_INDEX_ENV]: String(index),
        PORT: String(port),
        ADMIN_PORT: '0',
        ...exitWithMe(),
      },
    });
    running.set(index, { child, holder });
    child.on('message', (msg: unknown) => {
      if (isMessage<ToPrimary, 'beat'>(msg, 'beat')) {
        hangs.beat(child);
      } else if (isMessage<ToPrimary, 'reserve'>(msg, 'reserve')) {
        const ok = slots.reserve(holder, msg.address, msg.max);
        // Every worker's view first, then the answer: a client that connects again after this one
        // opened then meets a worker that knows the new count.
        if (ok) tellCount(msg.address);
        tell(child, { t: 'reserved', id: msg.id, ok });
      } else if (isMessage<ToPrimary, 'count'>(msg, 'count')) {
        tell(child, { t: 'count', id: msg.id, n: slots.total() });
      } else if (isMessage<ToPrimary, 'release'>(msg, 'release')) {
        if (slots.release(holder, msg.address)) tellCount(msg.address);
      } else if (isMessage<ToPrimary, 'ready'>(msg, 'ready')) {
        // A worker (a restarted one too) starts from the counts as they are.
        for (const [address, n] of slots.addresses()) tell(child, { t: 'slots', address, n });
        // A restarted worker listens at once; those of the start wait for each other.
        if (!readyAtStart) return tell(child, { t: 'listen' });
        readyAtStart.add(child);
        if (readyAtStart.size < config.apiWorkers) return;
        for (const c of readyAtStart) tell(c, { t: 'listen' });
        readyAtStart = null;
      } else if (isMessage<ToPrimary, 'listening'>(msg, 'listening')) {
        firstListen.get(index)?.resolve();
        firstListen.delete(index);
      } else {
        collector.accept(msg);
      }
    });
    child.on('error', (err) => log.error({ err, worker: index }, 'api worker error'));
    child.once('exit', (code, signal) => {
      hangs.forget(child);
      if (running.get(index)?.child === child) running.delete(index);
      // A dead worker's connections are gone: never leak its slots.
      for (const address of slots.dropHolder(holder)) tellCount(address);
      firstListen
        .get(index)
        ?.reject(new Error(`api worker ${index} exited before listening (${signal ?? `code ${code}`})`));
      firstListen.delete(index);
    });
    return child;
  };

  const supervisors: Supervised[] = [];
  const stopAll = () => Promise.all(supervisors.map((s) => s.stop()));
  const start = (index: number) => {
    const listened = new Promise<void>((resolve, reject) => firstListen.set(index, { resolve, reject }));
    supervisors.push(
      supervise(`api worker ${index}`, () => forkWorker(index), {
        notify: (line) => {
          workerRestarts.inc();
          log.warn({ worker: index }, line);
        },
        onFatal: (name, code) => {
          log.error({ worker: index, code }, `${name} cannot start: stopping`);
          void stopAll().then(() => process.exit(code));
        },
        // A worker's own shutdown budget (runProcess): drain, then up to 10 s to stop.
        stopGraceMs: 11_000 + config.drainSeconds * 1000,
      }),
    );
    return listened;
  };
  // uWS asks for SO_REUSEPORT only on a given port, so PORT=0 cannot be shared as the kernel's
  // pick: take a free port here and give all workers that one.
  if (port === 0) port = await freePort();
  try {
    // Every worker reads the geo table: built here once when none is cached, not in each at once.
    const geo = await ensureLocationTable();
    if (geo)
      log[geo.cacheError ? 'warn' : 'info'](
        { origin: geo.origin, unreadable: geo.unreadable?.message, err: geo.cacheError },
        'geo table built for the workers',
      );
    await Promise.all(Array.from({ length: config.apiWorkers }, (_, i) => start(i + 1)));
  } catch (err) {
    hangs.stop();
    await stopAll();
    throw err;
  }

  exposeWorkers(
    () => running.size,
    () => [...running].map(([index, r]) => [index, slots.heldBy(r.holder)]),
  );
  const admin = await startAdminServer(
    config.admin.host,
    config.admin.apiPort,
    log,
    () => ({ ok: running.size > 0, workers: running.size }),
    () => collector.collect([...running.values()].map((r) => r.child)),
  );
  log.info({ workers: config.apiWorkers, port, host: config.host }, 'api workers listening');

  return {
    // Outlast the workers' own budget so the primary exits after them, not before.
    drainMs: config.drainSeconds * 1000 + 2_000,
    async stop() {
      hangs.stop();
      await stopAll();
      await admin?.close();
    },
  };
}
