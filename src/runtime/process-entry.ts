/** The common entry of every long-running process: config, logger, start, graceful shutdown. */
import { createLogger, type Logger } from './log.js';
import { ConfigError } from './config-error.js';
import { onParentExit, parentToWatch } from './parent-watch.js';
import { onShutdown } from './shutdown.js';
import { exposeBuildInfo } from './build-info.js';
import { startWatchdog } from './watchdog.js';

/** What this entry needs of a process's configuration (config.ts gives it, with the rest). */
export interface ProcessSettings {
  logLevel: string;
  hangSeconds: number;
}

/** A started process as this entry runs it: stopped (after draining, if it drains) at a stop signal. */
export interface RunningProcess {
  stop(): Promise<void>;
  drain?(): Promise<void>;
  drainMs?: number;
  abandon?(): void;
}

/**
 * Loads config (`load`, which throws ConfigError on a bad one), starts the process and stops it on SIGTERM, SIGINT, SIGHUP and the other stop
 * signals (shutdown.ts). A bad configuration prints its message and exits with status 2.
 * `bindings` go in every log line (an API worker's index). A process that buffers counts says how
 * to spill them at once (`abandon`) should it have to exit before its stop finished.
 */
export async function runProcess<C extends ProcessSettings>(
  name: string,
  load: () => C,
  start: (config: C, log: Logger) => Promise<RunningProcess>,
  bindings?: Record<string, unknown>,
): Promise<void> {
  try {
    const config = load();
    const log = createLogger(config.logLevel, name, bindings);
    exposeBuildInfo();
    startWatchdog(name, config.hangSeconds);
    // Started by `npm start`: go down if the launcher is gone, from now on. A process still starting
    // (an API waiting for Redis) has nothing to stop yet, and a SIGTERM then simply ends it.
    const launcher = parentToWatch(process.env);
    if (launcher !== undefined) onParentExit(() => process.kill(process.pid, 'SIGTERM'), undefined, launcher);
    const proc = await start(config, log);
    // A process that drains (the API) keeps serving, reported not-ready, before it stops.
    onShutdown(
      log,
      async () => {
        await proc.drain?.();
        await proc.stop();
      },
      10_000 + (proc.drainMs ?? 0),
      () => proc.abandon?.(),
    );
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}
