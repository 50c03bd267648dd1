/** The repository stands alone: no tracked file points at a path outside it or on one machine. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// Built from parts so this file does not match itself.
const OUTSIDE = [['..', 'shared'].join('/'), ['', 'work', ''].join('/'), ['', 'root', ''].join('/'), ['DESIGN', 'md'].join('.'), ['widget-data', 'interface'].join('-'), ['reference', ''].join('/')];

describe('the repository', () => {
  it('refers to no path outside itself', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(50);
    const hits: string[] = [];
    for (const file of files) {
      // Recorded upstream responses are third-party data, quoted byte for byte.
      if (/^test\/fixtures\/recorded\/.*\.(json|jsonl|xml)$/.test(file)) continue;
      let text: string;
      try {
        text = readFileSync(resolve(root, file), 'utf8');
      } catch {
        continue; // deleted in the work tree
      }
      if (text.includes('\0')) continue; // binary
      for (const needle of OUTSIDE) if (text.includes(needle)) hits.push(`${file}: ${needle}`);
    }
    expect(hits).toEqual([]);
  });
});
