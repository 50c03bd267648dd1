/** The repository stands alone: no tracked file points at a path outside it or on one machine. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// Paths to the team's notes outside the repository, on a machine, or to documents by their outside
// names. Built from parts so this file does not match itself.
const OUTSIDE: RegExp[] = [
  new RegExp(['\\.\\.', 'shared'].join('/')),
  new RegExp(['', 'work', ''].join('/')),
  new RegExp(['', 'root', ''].join('/')),
  new RegExp(`\\b${['DESI', 'GN'].join('')}\\b`),
  new RegExp(['widget-data', 'interface'].join('-')),
  // a notes folder at the start of a path, not a URL path such as docs.example.com/api-reference/x
  new RegExp(`(^|[\\s(\`'"])${['refer', 'ence'].join('')}/`, 'm'),
];

describe('the repository', () => {
  it('refers to no path outside itself', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
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
      for (const pattern of OUTSIDE) if (pattern.test(text)) hits.push(`${file}: ${pattern.source}`);
    }
    expect(hits).toEqual([]);
  });
});
