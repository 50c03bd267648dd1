import type { BenchOptions } from './lib/options.js';
import type { Row } from './lib/table.js';
export async function runFanout(_o: BenchOptions, _log: (l: string) => void): Promise<{ rows: Row[]; details: unknown[] }> {
  return { rows: [], details: [] };
}
