/** Runs wrk and reads its report. */
import { spawnSync } from 'node:child_process';
import { pinned } from './cpu.js';

export interface WrkResult {
  /** Requests per second over the run. */
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers with a status outside 2xx/3xx: a run with any is not a measurement of the widget. */
  non2xx: number;
  /** Socket errors (connect, read, write, timeout) reported by wrk. */
  socketErrors: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** "1.21ms", "850.00us", "2.01s" → milliseconds. */
export function wrkDurationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** Parses the text wrk prints with --latency. */
export function parseWrk(stdout: string): WrkResult {
  const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? Number.NaN);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    requests: num(/(\d+) requests in /),
    p50Ms: wrkDurationMs(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    p99Ms: wrkDurationMs(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
    socketErrors: errors ? errors.slice(1).reduce((s, x) => s + Number(x), 0) : 0,
  };
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  /** Request headers, sent as given (wrk adds only Host). */
  headers?: Record<string, string>;
  /** CPU wrk runs on (taskset), when pinning is available. */
  cpu?: number;
}

/** One wrk run (one thread) against `url`. */
export function runWrk(url: string, opts: WrkOptions): WrkResult {
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const [cmd, ...rest] = pinned(opts.cpu, ['wrk', ...args]);
  const out = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: (opts.seconds + 30) * 1000 });
  if (out.error) throw new Error(`wrk could not run (${out.error.message}); install it (Debian: apt-get install wrk)`);
  const result = parseWrk(out.stdout);
  if (!Number.isFinite(result.rps)) throw new Error(`wrk printed no result for ${url}:\n${out.stdout}${out.stderr}`);
  return result;
}
