/**
 * Every time read of the service goes through the clock module (src/model/clock.ts): wall time
 * through an injected `Clock`, durations through the monotonic one. A `Date.now()` or an argument-less
 * `new Date()` anywhere else would read a time no test can move.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/files.js';

const root = resolve(import.meta.dirname, '../..');
const CLOCK_MODULE = 'src/model/clock.ts';

/** `Date.now` (called, or handed on as a clock) and `new Date()` (no argument), outside comments. */
function clockReads(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/\bDate\.now\b(?:\s*\(\s*\))?|\bnew\s+Date\s*\(\s*\)/g)].map((m) => m[0]);
}

describe('one clock', () => {
  it('finds the reads it looks for, and not a Date built from a time', () => {
    expect(
      clockReads('const a = Date.now();\nconst b = new Date();\nconst c = new Date(ms);\nf(Date.now);\n// Date.now()'),
    ).toEqual(['Date.now()', 'new Date()', 'Date.now']);
  });

  it('is read only through src/model/clock.ts in src/ and workers/', () => {
    const files = [...filesUnder(join(root, 'src'), '.ts'), ...filesUnder(join(root, 'workers'), '.ts')];
    expect(files.length).toBeGreaterThan(100);
    const reads = files
      .map((file) => relative(root, file))
      .filter((file) => file !== CLOCK_MODULE)
      .flatMap((file) => clockReads(readFileSync(join(root, file), 'utf8')).map((read) => `${file}: ${read}`));
    expect(reads).toEqual([]);
  });
});
