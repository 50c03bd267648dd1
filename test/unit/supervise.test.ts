/** The launcher's supervisor with real child processes: restarts a crashing child, gives up on a bad configuration. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CONFIG_ERROR_EXIT, supervise } from '../../src/runtime/supervise.js';

const exitingWith = (code: number) => () =>
  spawn(process.execPath, ['-e', `process.exit(${code})`], { stdio: 'ignore' });

describe('supervise', () => {
  it('restarts a child that exits, with a growing backoff, until stopped', async () => {
    const lines: string[] = [];
    const s = supervise('worker', exitingWith(1), {
      minBackoffMs: 5,
      maxBackoffMs: 20,
      notify: (l) => lines.push(l),
      onFatal: () => lines.push('fatal'),
    });
    await expect.poll(() => s.starts(), { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(5); // four exits reported
    await s.stop();
    const after = s.starts();
    expect(lines.slice(0, 4)).toEqual([
      'worker exited (code 1); restarting in 0.005 s',
      'worker exited (code 1); restarting in 0.01 s',
      'worker exited (code 1); restarting in 0.02 s',
      'worker exited (code 1); restarting in 0.02 s',
    ]);
    expect(lines).not.toContain('fatal');
    await new Promise((r) => setTimeout(r, 100));
    expect(s.starts()).toBe(after); // nothing restarts after stop
  }, 30_000);

  it('does not restart a child that cannot start (bad configuration)', async () => {
    const fatal: Array<[string, number]> = [];
    const s = supervise('feed', exitingWith(CONFIG_ERROR_EXIT), {
      minBackoffMs: 5,
      notify: () => {},
      onFatal: (name, code) => fatal.push([name, code]),
    });
    await expect.poll(() => fatal, { timeout: 20_000, interval: 50 }).toEqual([['feed', 2]]);
    expect(s.starts()).toBe(1);
    expect(s.current()).toBeUndefined();
    await s.stop();
  }, 30_000);

  it('kills and restarts a child that stops answering its liveness probe, once it has answered', async () => {
    const lines: string[] = [];
    let answering = true;
    let probes = 0;
    const s = supervise(
      'feed',
      () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
      {
        minBackoffMs: 5,
        notify: (l) => lines.push(l),
        onFatal: () => {},
        liveness: {
          probe: async () => {
            probes++;
            return answering;
          },
          hangMs: 500,
        },
      },
    );
    const first = s.current()!;
    await expect.poll(() => probes, { timeout: 5_000, interval: 50 }).toBeGreaterThan(0); // it answered once
    expect(lines).toEqual([]);
    answering = false; // hung, as far as anyone can tell
    await expect.poll(() => s.starts(), { timeout: 10_000, interval: 50 }).toBe(2);
    expect(first.signalCode).toBe('SIGKILL');
    expect(lines[0]).toMatch(/^feed has not answered its health check for \d+ s; killing it$/);
    expect(lines[1]).toBe('feed exited (SIGKILL); restarting in 0.005 s');
    await s.stop();
  }, 30_000);

  it('stop ends a running child', async () => {
    const s = supervise(
      'api',
      () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
      { notify: () => {}, onFatal: () => {} },
    );
    const child = s.current()!;
    await s.stop();
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    expect(s.starts()).toBe(1);
  }, 30_000);
});
