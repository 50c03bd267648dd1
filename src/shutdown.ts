import type { Logger } from './log.js';

/**
 * Runs `stop` once on SIGINT/SIGTERM, then exits. A second signal, or a stop that hangs past
 * `graceMs`, exits at once so nothing is left running.
 */
export function onShutdown(log: Logger, stop: () => Promise<void>, graceMs = 10_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), graceMs).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
