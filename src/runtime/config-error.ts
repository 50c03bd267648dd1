/**
 * A configuration that cannot run: every process entry prints its message (one line per bad
 * setting) and exits with status 2 instead of a stack trace.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
