import { constants } from 'node:os';
import type { Logger } from './log.js';

/**
 * Every signal that stops a process gracefully, as SIGTERM does (drain, write or spill what is
 * buffered, exit): what supervisors and terminals send (SIGTERM: Docker, systemd, Kubernetes;
 * SIGINT: Ctrl-C; SIGHUP: a closed terminal, or a log rotation expecting a reload, which a process
 * with no configuration file that logs to stdout has no use for; SIGQUIT: Ctrl-\ and some images'
 * STOPSIGNAL; SIGUSR2: nodemon's restart), and the others whose default would kill the process on
 * the spot (SIGPWR, SIGXCPU, SIGALRM, SIGVTALRM, SIGIO, SIGSTKFLT). Left as Node has them: SIGUSR1
 * (opens the inspector), SIGPROF (the CPU profiler's), SIGPIPE and SIGXFSZ (ignored), the stop and
 * continue signals (the process only pauses), faults, and SIGKILL, which nothing can catch.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = (
  [
    'SIGTERM',
    'SIGINT',
    'SIGHUP',
    'SIGQUIT',
    'SIGUSR2',
    'SIGPWR',
    'SIGXCPU',
    'SIGALRM',
    'SIGVTALRM',
    'SIGIO',
    'SIGSTKFLT',
  ] as const
).filter((s) => s in constants.signals);

/**
 * Runs `stop` once on any of STOP_SIGNALS, then exits. A second SIGINT (someone pressing Ctrl-C
 * again) or a stop that hangs past `graceMs` exits at once, after `abandon` (synchronous: it spills
 * what is still buffered); any other signal during a stop is logged and changes nothing, so a
 * supervisor's SIGTERM after a terminal's SIGHUP cannot cut the stop short.
 */
export function onShutdown(
  log: Logger,
  stop: () => Promise<void>,
  graceMs = 10_000,
  abandon: () => void = () => {},
): void {
  let stopping = false;
  const exitNow = (why: string) => {
    log.warn({ why }, 'exiting before the stop finished');
    try {
      abandon();
    } finally {
      process.exit(1);
    }
  };
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') exitNow('second SIGINT');
      else log.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => exitNow(`stop took over ${graceMs} ms`), graceMs).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
}
