/** One launcher per data folder: a live holder refuses, a dead one's pidfile is taken over. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../src/runtime/data-lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'pw-lock-'));

describe('lockDataDir', () => {
  it('takes the folder, and release gives it back', () => {
    const d = dir();
    const release = lockDataDir(d);
    expect(readFileSync(join(d, 'launcher.pid'), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(d, 'launcher.pid'))).toBe(false);
  });

  it('refuses while a live process holds it', () => {
    const d = dir();
    writeFileSync(join(d, 'launcher.pid'), `${process.ppid}\n`); // our parent: certainly alive
    expect(() => lockDataDir(d)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(d)).toThrow(`in use by another npm start (pid ${process.ppid})`);
  });

  it('cleans up a stale pidfile left by a process that is gone', () => {
    const d = dir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(d, 'launcher.pid'), `${gone.stdout}\n`);
    const release = lockDataDir(d);
    expect(readFileSync(join(d, 'launcher.pid'), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('takes over a half-written pidfile', () => {
    const d = dir();
    writeFileSync(join(d, 'launcher.pid'), '');
    lockDataDir(d)();
  });
});
