/**
 * Postbacks that arrived while Redis could not count them (routes/postback.ts answers those 202):
 * a spilling queue (spilling-queue.ts) written about once a second and at once when Redis is back,
 * spilled at stop and written by the next API process to start in the data folder. Bounded
 * (MAX_PENDING): beyond it a postback is refused 503 so the operator sends it again later, never
 * lost in silence. Writing one twice counts nothing twice (conversions.ts: each operator event id
 * counts once).
 *
 * Outcomes known only once written (a click id nobody made) are counted in the postbacks metric
 * and logged, as the route counts those it answers.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../runtime/log.js';
import { postbackBufferSize, postbacks } from '../metrics/http.js';
import { CURRENCY_CODES } from '../model/index.js';
import { POSTBACK_EVENTS, writeConversions, type Conversion } from './conversions.js';
import { SpillingQueue } from './spilling-queue.js';

/** Postbacks waiting for Redis: an outage's worth for any operator's volume, some tens of MB at most. */
export const MAX_PENDING = 100_000;

/** A spilled postback, checked on replay. */
const SpilledConversion: z.ZodType<Conversion> = z.object({
  operatorId: z.string(),
  clickId: z.string(),
  event: z.enum(POSTBACK_EVENTS),
  eventId: z.string(),
  currency: z.enum(CURRENCY_CODES).optional(),
  amountMinor: z.number().int().nonnegative().optional(),
  commissionMinor: z.number().int().nonnegative().optional(),
  atMs: z.number().int(),
});

/** The queue of postbacks waiting for Redis. */
export function postbackBuffer(
  redis: Redis,
  log: Logger,
  spillDir?: string,
  flushMs?: number,
): SpillingQueue<Conversion> {
  return new SpillingQueue<Conversion>(redis, log, {
    kind: 'postbacks',
    schema: SpilledConversion,
    max: MAX_PENDING,
    batch: 500,
    spillDir,
    flushMs,
    onSize: (n) => postbackBufferSize.set(n),
    onDropped: (n) => postbacks.labels('dropped').inc(n),
    async write(batch) {
      const outcomes = await writeConversions(redis, batch);
      outcomes.forEach((outcome, i) => {
        postbacks.labels(outcome).inc();
        if (outcome === 'unknown_click')
          log.warn(
            { operator: batch[i]!.operatorId, event_id: batch[i]!.eventId },
            'queued postback names an unknown click; not counted',
          );
      });
    },
  });
}

export type PostbackBuffer = SpillingQueue<Conversion>;
