import type { ChildProcess } from 'node:child_process';

/** Sends SIGTERM and resolves when the child has exited; SIGKILL after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 8_000): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      done();
    });
    child.kill('SIGTERM');
  });
}
