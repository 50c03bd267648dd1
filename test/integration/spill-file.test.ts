/**
 * Spill files are written whole or not at all: a write that fails half way (the disk full, here a
 * file-size limit of zero on the writing process, which fails a write the same way and needs no
 * mount rights) leaves no temporary file behind, and the caller hears of the failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('spill', () => {
  it('a write the file system refuses half way leaves no temporary file, and throws', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-spill-full-'));
    const script = `import { spill } from ${JSON.stringify(resolve(root, 'src/tracking/spill-file.ts'))};
try { spill(process.argv[1], 'clicks', [{ visitor: 'v1' }]); console.log('written'); } catch (err) { console.log('failed', err.code); }`;
    // ulimit -f 0: every write past byte 0 fails with EFBIG (Node ignores the SIGXFSZ that comes with it).
    const run = spawnSync(
      'sh',
      ['-c', 'ulimit -f 0 && exec "$0" --import tsx --input-type=module -e "$1" "$2"', process.execPath, script, dir],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stdout.trim(), run.stderr).toBe('failed EFBIG');
    expect(readdirSync(dir)).toEqual([]);
  });
});
