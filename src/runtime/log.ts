import { pino, type Logger } from 'pino';

export type { Logger };

/** One pino JSON logger per process; secrets never go in log fields. `bindings` go in every line. */
export function createLogger(level: string, name: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid, name, ...bindings },
    redact: ['apiKey', 'headers["x-api-key"]', '*.apiKey'],
  });
}
