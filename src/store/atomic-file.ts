/**
 * A file replaced whole or not at all: written under a per-process temporary name (API workers
 * share the data folder) and renamed over the old one; a failed write leaves no temporary file.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes `text` to `file` atomically (mode 600), making its folder if needed. @throws on a file-system error. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}
