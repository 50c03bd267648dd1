/**
 * Exits with the parent. `npm start` runs under npm and a shell: a SIGTERM to npm kills npm and the
 * shell but never reaches us, and a launcher killed hard never stops its children. Re-parenting
 * (our parent pid changes) is the one signal every such case leaves, so we poll for it.
 */
export function onParentExit(callback: () => void, intervalMs = 500, parent = process.ppid): void {
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      callback();
    }
  }, intervalMs);
  timer.unref();
}

/**
 * Set by a launcher on its children, so they exit if it disappears: its own pid, so that a child
 * whose launcher died before the child could look (it was still loading) still notices.
 */
export const EXIT_WITH_PARENT_ENV = 'PW_EXIT_WITH_PARENT';

/** The environment a launcher gives its children (EXIT_WITH_PARENT_ENV). */
export const exitWithMe = (): Record<string, string> => ({ [EXIT_WITH_PARENT_ENV]: String(process.pid) });

/** The launcher's pid this process must exit without (EXIT_WITH_PARENT_ENV); undefined when unset. */
export function parentToWatch(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[EXIT_WITH_PARENT_ENV];
  return value ? Number(value) : undefined;
}
