import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (recursively) whose name ends with `suffix`, as paths joined to `dir`. */
export function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path, suffix);
    return e.name.endsWith(suffix) ? [path] : [];
  });
}
