/**
 * A local-disk copy of the compliance state an API process applies (DATA_DIR/compliance.json): its
 * revision, the active suspensions and the published rules document. Read at start when Redis is
 * away, and used to put the state back into a Redis that lost its data, so a suspension is never
 * lifted by an outage or a flush. Written under a temporary name and renamed (API workers share
 * the folder); validated when read back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../store/atomic-file.js';
import { Suspension } from './suspensions.js';

const FORMAT = 'predictwire-compliance';

export const ComplianceCopy = z
  .object({
    format: z.literal(FORMAT),
    revision: z.number().int().min(0),
    suspensions: z.array(Suspension),
    rules: z.object({ revision: z.number().int().min(1), text: z.string() }).nullable(),
  })
  .strict();
export type ComplianceCopy = z.infer<typeof ComplianceCopy>;

/** The copy's file inside the data folder. */
export const complianceCopyFile = (dataDir: string) => join(dataDir, 'compliance.json');

/** Writes `copy` to `file` atomically. @throws on a file-system error (the caller logs it). */
export function writeComplianceCopy(file: string, copy: Omit<ComplianceCopy, 'format'>): Promise<void> {
  return writeFileAtomic(file, JSON.stringify({ format: FORMAT, ...copy }));
}

/** The copy in `file`; undefined when there is none; an error message when it is not a valid copy. */
export function readComplianceCopy(file: string): ComplianceCopy | undefined | { error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = ComplianceCopy.safeParse(JSON.parse(text));
    return parsed.success
      ? parsed.data
      : { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  } catch {
    return { error: 'not JSON' };
  }
}
