/**
 * The bodies of the service's own operations (health, readiness, postback receipts), as zod
 * schemas: the routes answer with them and the OpenAPI document (openapi-schemas.ts) names them as
 * components. Kept apart from the routes so the document's schemas import no route.
 */
import { z } from 'zod';
import { POSTBACK_EVENTS } from '../tracking/conversions.js';

/** GET /healthz: the process is alive. */
export const HealthBody = z
  .object({ status: z.literal('ok').describe('Always ok: the process answers.') })
  .describe('Liveness.');

/** The last tick's time per asset (assets without one yet are absent). */
const TickTimes = z
  .record(z.string(), z.string())
  .describe("The last tick's time per asset (RFC 3339); assets without one yet are absent.");

/** GET /readyz: whether this instance can serve, and why not (docs/operations.md). */
export const ReadyBody = z
  .object({
    status: z
      .enum(['ready', 'degraded', 'not_ready'])
      .describe('ready; degraded (serving without Redis or with stale data, still 200); not_ready (503).'),
    missing: z
      .array(z.string())
      .describe(
        'What this instance lacks, in words ("redis", "snapshot events/all stale", "price feed BTC", "redis maxmemory-policy allkeys-lru", "data folder not writable (EACCES)"); empty when ready.',
      ),
    redis: z.enum(['ok', 'unreachable']).describe('Whether Redis answers.'),
    redis_eviction_policy: z
      .string()
      .nullable()
      .describe(
        "Redis's maxmemory-policy; anything but noeviction is named in missing (a full Redis may evict our data). Null before Redis said.",
      ),
    data_dir: z
      .object({
        writable: z
          .boolean()
          .describe('Whether the data folder takes a write (counts not written to Redis are spilled there at a stop).'),
        free_bytes: z.number().nullable().describe('Bytes free on its file system; null when unknown.'),
      })
      .describe('The local data folder, as last probed (every 10 s).'),
    draining: z.boolean().describe('True from SIGTERM on.'),
    snapshots: z
      .array(
        z.object({
          kind: z.string().describe('Data kind: events, sportsbook, metrics, fx.'),
          key: z.string().describe('The snapshot within the kind (all, a league, daily).'),
          loaded: z.boolean().describe('Whether this instance holds it.'),
          version: z.number().nullable().describe('Its version; null when not loaded.'),
          changed_at: z.string().nullable().describe('When its data last changed (RFC 3339).'),
          fetched_at: z
            .string()
            .nullable()
            .describe(
              "When it was last fetched successfully (RFC 3339), by this instance's clock: a stamp from the future counts from when it was seen.",
            ),
          age_seconds: z.number().nullable().describe('Seconds since fetched_at.'),
          stale: z.boolean().describe('True past its staleness limit.'),
          stale_after_seconds: z.number().describe('Its staleness limit.'),
          failures: z.number().int().describe('Refreshes failed in a row.'),
          last_error: z.string().optional().describe('The last refresh error.'),
          last_error_at: z.string().nullable().optional().describe('When it happened (RFC 3339).'),
          failure_reason: z
            .string()
            .nullable()
            .optional()
            .describe('Its class (timeout, http_5xx, invalid_payload, ...).'),
        }),
      )
      .describe('Every snapshot this instance needs.'),
    price_feed: z
      .object({ stale_assets: z.array(z.string()).describe('Assets with no recent tick.'), last_tick_at: TickTimes })
      .describe('The price feed as this instance hears it.'),
    live: z
      .object({
        ticks_applied: z.number().describe('Ticks folded into windows since start.'),
        bad_ticks: z.number().describe('Ticks refused as malformed or stamped more than a second ahead of our clock.'),
        last_tick_at: TickTimes,
        quotes_held: z.number().describe('Venue quotes held in memory.'),
        bad_quotes: z.number().describe('Venue quotes refused as malformed.'),
      })
      .describe('The live-market engine.'),
    websocket: z
      .object({ connections: z.number().int().describe('Open WebSocket connections.') })
      .describe('WebSocket server.'),
  })
  .describe('Readiness of this instance.');

/** /readyz while the process drains before shutdown (503). */
export const DrainingBody = z
  .object({ status: z.literal('draining').describe('Always draining.') })
  .describe('The process is draining before shutdown.');

export const PostbackReceipt = z
  .object({
    status: z
      .enum(['counted', 'duplicate', 'queued'])
      .describe(
        'counted: new, now in the reports; duplicate: this event id was counted before, nothing changed; queued: accepted while storage is away, counted within seconds of its return (a click id that turns out unknown is then not counted)',
      ),
    operator_id: z.string().describe('The operator, as sent'),
    event: z.enum(POSTBACK_EVENTS).describe('As sent'),
    event_id: z.string().describe('As sent'),
    click_id: z.string().describe('As sent'),
  })
  .describe('A postback taken: what became of it.');
