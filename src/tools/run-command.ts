/** How a command-line tool ends: its exit status, a usage error with the usage (2), an expected error in one line (1). */
import { ConfigError } from '../runtime/config-error.js';
import { RedisUnreachableError } from '../store/redis-once.js';

/** A mistake in the command line: answered with the message and the usage. */
export class UsageError extends Error {}

/**
 * Runs `main` on the process's arguments and exits with its status. `expected` says which errors of
 * the tool's own are the user's to fix (a bad file): printed as their message alone, not as a stack,
 * as are a bad setting and a Redis out of reach (redis-connection.ts), for every tool.
 */
export function runCommand(
  main: (argv: string[]) => Promise<number>,
  usage: string,
  expected: (err: unknown) => boolean,
): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        process.stderr.write(`${(err as Error).message}\n\n${usage}\n`);
        process.exit(2);
      }
      const known = err instanceof ConfigError || err instanceof RedisUnreachableError || expected(err);
      process.stderr.write(`${known ? (err as Error).message : String(err)}\n`);
      process.exit(1);
    },
  );
}
