/**
 * Backup of advertiser keys: every advertiser's stored record (name, status, times and key
 * *hashes*, never a key) as one JSON document, and its import into another Redis. Keys verify
 * after an import only under the same API_KEY_PEPPER. An import adds advertisers that are missing
 * and leaves existing ones untouched (a backup never overwrites a newer rotation or a revocation).
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ADVERTISER_ID, advKey, INDEX, INVALIDATE_CHANNEL } from './advertiser-keys.js';

const FORMAT = 'predictwire-advertisers';

const HashHex = z.string().regex(/^([0-9a-f]{64})?$/, 'a 64-digit hex HMAC, or empty');
const Entry = z
  .object({
    id: z.string().regex(ADVERTISER_ID),
    fields: z
      .object({
        status: z.enum(['active', 'revoked']),
        keyHash: HashHex,
        prevKeyHash: HashHex.optional(),
        name: z.string().max(200).optional(),
      })
      // The rest (times, last-used times) is carried as stored.
      .catchall(z.string().max(200)),
  })
  .strict();

export const AdvertiserBackup = z
  .object({ format: z.literal(FORMAT), version: z.literal(1), exportedAt: z.string(), advertisers: z.array(Entry) })
  .strict();
export type AdvertiserBackup = z.infer<typeof AdvertiserBackup>;

/** A backup document holding `advertisers` (checked), made at `now`. */
export function advertiserBackup(
  advertisers: ReadonlyArray<{ id: string; fields: Record<string, string> }>,
  now: Date,
): AdvertiserBackup {
  return AdvertiserBackup.parse({ format: FORMAT, version: 1, exportedAt: now.toISOString(), advertisers });
}

/** Every advertiser's record, as stored. */
export async function exportAdvertisers(redis: Redis, now: Date): Promise<AdvertiserBackup> {
  const ids = (await redis.smembers(INDEX)).sort();
  const rows = await Promise.all(ids.map((id) => redis.hgetall(advKey(id))));
  return advertiserBackup(
    ids.flatMap((id, i) => (rows[i]!.status ? [{ id, fields: rows[i]! }] : [])),
    now,
  );
}

// Writes the record only where none exists: an import never overwrites.
const IMPORT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

/** Adds the advertisers of `backup` that this Redis lacks; returns the ids added and those skipped. */
export async function importAdvertisers(
  redis: Redis,
  backup: AdvertiserBackup,
): Promise<{ added: string[]; skipped: string[] }> {
  const added: string[] = [];
  const skipped: string[] = [];
  for (const { id, fields } of backup.advertisers) {
    const pairs = Object.entries(fields).flat();
    const done = await redis.eval(IMPORT, 2, advKey(id), INDEX, id, ...pairs);
    (done === 1 ? added : skipped).push(id);
    // The API processes learn of it at once (registered ids, cached checks).
    if (done === 1) await redis.publish(INVALIDATE_CHANNEL, id);
  }
  return { added, skipped };
}
