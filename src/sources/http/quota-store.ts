/**
 * Where a paid provider's quota and call times are kept between runs: what the provider last said
 * (credits left, a block, a Retry-After) and when each kind of call was last made, so a restarted
 * worker neither calls while a block holds nor calls again before its interval. The store is given
 * to the source, so the source stays free of Redis (src/store/quota-store.ts is the Redis one).
 */
import { z } from 'zod';
import { SavedQuota } from './quota.js';

export const SavedPacing = z.object({
  quota: SavedQuota,
  /** Epoch ms of the last call per call name ("odds:NBA", "scores:NBA"), made or attempted. */
  calls: z.record(z.string(), z.number().int().nonnegative()),
});
export type SavedPacing = z.infer<typeof SavedPacing>;

export interface QuotaStore {
  load(): Promise<SavedPacing | undefined>;
  save(pacing: SavedPacing): Promise<void>;
}

/** A store that lasts as long as the process (the default, and for tools). */
export function processQuotaStore(): QuotaStore {
  let kept: SavedPacing | undefined;
  return {
    load: async () => kept,
    save: async (p) => {
      kept = p;
    },
  };
}
