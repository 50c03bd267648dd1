/**
 * A process whose event loop is stuck kills itself (SIGKILL), so that its supervisor restarts it:
 * a real process, stuck in an endless loop, and its real watchdog thread.
 */
import { describe, expect, it } from 'vitest';
import { spawnEntry } from '../support/processes.js';

describe('watchdog', () => {
  it('kills a process whose event loop is stuck for longer than HANG_SECONDS, saying why', async () => {
    const HANG_SECONDS = 2;
    const stuck = spawnEntry('test/support/hang.ts', [String(HANG_SECONDS)], process.env);
    const signal = await new Promise<NodeJS.Signals | null>((r) => stuck.child.once('exit', (_code, s) => r(s)));
    expect(signal).toBe('SIGKILL');
    expect(stuck.output()).toContain('looping');
    const line = JSON.parse(
      stuck
        .output()
        .split('\n')
        .find((l) => l.includes('event loop stuck'))!,
    ) as { silent_seconds: number; name: string };
    expect(line.name).toBe('hang-test');
    expect(line.silent_seconds).toBeGreaterThan(HANG_SECONDS);
  }, 30_000);
});
