/**
 * Exits with the parent. `npm start` runs under npm and a shell: a SIGTERM to npm kills npm and the
 * shell but never reaches us, and a launcher killed hard never stops its children. Re-parenting
 * (our parent pid changes) is the one signal every such case leaves, so we poll for it.
 */
export function onParentExit(callback: () => void, intervalMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      callback();
    }
  }, intervalMs);
  timer.unref();
}

/** Set by the launcher on its children, so they exit if the launcher disappears. */
export const EXIT_WITH_PARENT_ENV = 'PW_EXIT_WITH_PARENT';
