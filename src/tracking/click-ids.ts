/**
 * Click ids: the id a counted click carries to the operator (in the sub-id parameter its affiliate
 * programme reads) and that the operator's postbacks quote back (postbacks.ts). An id is 20 bytes
 * in base64url (27 characters): the click's second (4 bytes, big-endian Unix seconds), so an id
 * past its attribution window is known as expired without asking Redis, then 16 random bytes
 * (128 bits), so no one can guess another's id.
 *
 * What a click id resolves to (advertiser, operator, widget class, placement, jurisdiction, time)
 * is written with the click's count, in the same batched transaction (click-counter.ts), to
 * `pw:click:{id}`, expiring at the end of the attribution window (CLICK_ATTRIBUTION_DAYS): the
 * redirect itself waits on nothing new.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The form of every click id. */
export const CLICK_ID = /^[A-Za-z0-9_-]{27}$/;

const RANDOM_BYTES = 16;
// randomBytes costs a few µs a call whatever its size, and this is on the click redirect: ids
// draw their random part from a block of 256.
let pool = Buffer.alloc(0);
let poolAt = 0;

/** A new click id for a click at `nowMs`. */
export function newClickId(nowMs: number): string {
  if (poolAt + RANDOM_BYTES > pool.length) {
    pool = randomBytes(RANDOM_BYTES * 256);
    poolAt = 0;
  }
  const id = Buffer.allocUnsafe(4 + RANDOM_BYTES);
  id.writeUInt32BE(Math.floor(nowMs / 1000) >>> 0, 0);
  pool.copy(id, 4, poolAt, poolAt + RANDOM_BYTES);
  poolAt += RANDOM_BYTES;
  return id.toString('base64url');
}

/** The time (ms) a well-formed click id was made at; undefined for anything else. */
export function clickIdTime(id: string): number | undefined {
  if (!CLICK_ID.test(id)) return undefined;
  return Buffer.from(id, 'base64url').readUInt32BE(0) * 1000;
}

/** The Redis key of a click id's attribution. */
export const clickKey = (id: string) => `pw:click:${id}`;

/** What a click id resolves to, as stored (short names: one is kept per click for the window). */
export const ClickRecord = z.object({
  /** Operator, widget class, placement. */
  o: z.string(),
  w: z.string(),
  p: z.string(),
  /** The jurisdiction the link was built for ("US-NJ", "GB"); absent when unknown. */
  j: z.string().optional(),
  /** The advertiser the link credits, if any. */
  a: z.string().optional(),
  /** When the click was made (ms). */
  t: z.number().int(),
});
export type ClickRecord = z.infer<typeof ClickRecord>;
