/**
 * A process's own watchdog: the main thread stamps the time into shared memory every second while
 * its event loop runs; a small worker thread checks the stamp, and when it is older than
 * HANG_SECONDS (an endless loop, a stuck synchronous call) logs one line and kills the process
 * with SIGKILL. Whatever supervises it (compose's restart policy, the `npm start` launcher, the API
 * primary) then starts it again, as after a crash: a hung process is worse than a dead one, since
 * it keeps its port and answers nobody. A stopped process (SIGSTOP) stops its watchdog too; the API
 * primary's heartbeat (cluster/heartbeat.ts) covers that case for API workers.
 */
import { Worker } from 'node:worker_threads';

const STAMP_MS = 1_000;

// Both threads read the monotonic clock (process.hrtime, one source for the whole process), never
// the wall clock: a wall clock stepped by NTP, or moved in one thread only, is no hang.
const seconds = () => Number(process.hrtime.bigint() / 1_000_000_000n);

// The thread's whole program: plain JavaScript, so it runs the same under tsx and from dist/.
const WATCHER = `
const { workerData } = require('node:worker_threads');
const stamp = new Int32Array(workerData.buffer);
setInterval(() => {
  const silent = Number(process.hrtime.bigint() / 1000000000n) - Atomics.load(stamp, 0);
  if (silent <= workerData.hangSeconds) return;
  // Straight to the file descriptor: a worker thread's process.stderr goes through the stuck main thread.
  require('node:fs').writeSync(2, JSON.stringify({ level: 60, time: Math.round(performance.timeOrigin + performance.now()), pid: process.pid, name: workerData.name, silent_seconds: silent, msg: 'event loop stuck: killing this process so that its supervisor restarts it' }) + '\\n');
  process.kill(process.pid, 'SIGKILL');
}, 1000);
`;

/** Starts the watchdog of this process (`name` goes in its log line). */
export function startWatchdog(name: string, hangSeconds: number): void {
  const buffer = new SharedArrayBuffer(4);
  const stamp = new Int32Array(buffer);
  const beat = () => Atomics.store(stamp, 0, seconds());
  beat();
  setInterval(beat, STAMP_MS).unref();
  new Worker(WATCHER, { eval: true, workerData: { buffer, hangSeconds, name } }).unref();
}
