/**
 * The order test files start in. Once vitest knows every file's duration from an earlier run (its
 * cache in node_modules/.vite), its own order stands: longest first. Without one (a fresh clone,
 * CI), vitest starts the largest files first, and a long end-to-end file can come last while the
 * other worker has nothing left to do. Here the end-to-end files go first, then integration, then
 * unit (milliseconds each, the ones that fill the end), largest first within each.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ORDER = ['test/e2e/', 'test/integration/', 'test/unit/'];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId);
    const known = files.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`));
    if (known) return super.sort(files);
    const rank = (f: TestSpecification) => {
      const at = ORDER.findIndex((dir) => path(f).startsWith(dir));
      return at < 0 ? ORDER.length : at;
    };
    const size = new Map(files.map((f) => [f, statSync(f.moduleId).size]));
    return [...files].sort((a, b) => rank(a) - rank(b) || size.get(b)! - size.get(a)!);
  }
}
