/**
 * Under `npm start` a person reads the logs: each child's JSON lines go through pino-pretty (a dev
 * dependency, so only the launcher uses it; every process still writes JSON, the default anywhere
 * else). Without pino-pretty installed the JSON passes through unchanged.
 */
import type { Readable } from 'node:stream';

type Prettifier = (opts: Record<string, unknown>) => NodeJS.WritableStream;

let prettifier: Prettifier | null | undefined;

async function load(): Promise<Prettifier | null> {
  if (prettifier === undefined) {
    prettifier = await import('pino-pretty').then(
      (m) => m.default as unknown as Prettifier,
      () => null,
    );
  }
  return prettifier;
}

/**
 * Writes `source` (a child's stdout) to our stdout, prettified. One prettifier per child, so lines
 * of two children never interleave mid-line.
 */
export async function prettyPipe(source: Readable): Promise<void> {
  const pretty = await load();
  if (!pretty) {
    source.pipe(process.stdout, { end: false });
    return;
  }
  source.pipe(
    pretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      sync: true,
    }),
  );
}
