/** The process's open-file limit, to keep the WebSocket connection cap well below it. */
import { readFileSync } from 'node:fs';

/** The soft "Max open files" limit (Linux /proc), or `fallback` where it cannot be read. */
export function openFileLimit(fallback = 1024): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : fallback;
  } catch {
    return fallback;
  }
}

/** Default WebSocket cap: half the descriptors, the rest for HTTP, Redis and files. */
export const defaultWsCap = () => Math.floor(openFileLimit() / 2);
