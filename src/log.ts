import { pino, type Logger } from 'pino';

export type { Logger };

/** One pino JSON logger per process; secrets never go in log fields. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid, name },
    redact: ['apiKey', 'headers["x-api-key"]', '*.apiKey'],
  });
}
