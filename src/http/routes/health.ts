/**
 * Liveness and readiness (docs/operations.md, "Health and readiness").
 *
 * `/readyz` answers "can this instance serve?": every snapshot it needs loaded in memory, not
 * draining. Redis unreachable or stale data is `degraded`, still 200, with `missing` naming what is
 * lacking: the last good data is served (flagged), and a Redis blip or one stale upstream must not
 * pull every instance out of its load balancer at once, since every instance shares them.
 */
import { z } from 'zod';
import { priceFeedStaleness } from '../../metrics/live.js';
import { withTimeout } from '../../with-timeout.js';
import type { Deps } from '../deps.js';
import { json } from '../respond.js';
import type { Handler } from '../types.js';

/** GET /healthz: the process is alive. */
export const HealthBody = z.object({ status: z.literal('ok') });

/** The last tick's time per asset (assets without one yet are absent). */
const TickTimes = z.record(z.string(), z.string());

/** GET /readyz: whether this instance can serve, and why not (docs/operations.md). */
export const ReadyBody = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  /** What this instance lacks, in words ("redis", "snapshot events/all", "price feed BTC"): empty when ready. */
  missing: z.array(z.string()),
  redis: z.enum(['ok', 'unreachable']),
  draining: z.boolean(),
  snapshots: z.array(
    z.object({
      kind: z.string(),
      key: z.string(),
      loaded: z.boolean(),
      version: z.number().nullable(),
      changed_at: z.string().nullable(),
      fetched_at: z.string().nullable(),
      age_seconds: z.number().nullable(),
      stale: z.boolean(),
      stale_after_seconds: z.number(),
      failures: z.number().int(),
      last_error: z.string().optional(),
      last_error_at: z.string().nullable().optional(),
      failure_reason: z.string().nullable().optional(),
    }),
  ),
  price_feed: z.object({ stale_assets: z.array(z.string()), last_tick_at: TickTimes }),
  live: z.object({
    ticks_applied: z.number(),
    bad_ticks: z.number(),
    last_tick_at: TickTimes,
    quotes_held: z.number(),
    bad_quotes: z.number(),
  }),
  websocket: z.object({ connections: z.number().int() }),
});

/** /readyz while the process drains before shutdown (503). */
export const DrainingBody = z.object({ status: z.literal('draining') });

export const healthRoute = (): Handler => () => json(200, { status: 'ok' } satisfies z.input<typeof HealthBody>);

export function readyRoute(deps: Deps): Handler {
  return async () => {
    let redisOk = true;
    try {
      await deps.breaker.execute(() => withTimeout(deps.redis.ping(), 1_000));
    } catch {
      redisOk = false;
    }
    // Fresh meta for the answer (the background poll may be two seconds behind); cheap, and never on a widget's path.
    if (redisOk) await withTimeout(deps.freshness.poll(), 1_000).catch(() => {});
    const snapshots = deps.freshness.states().map((s) => {
      const loaded = deps.snapshots.get(s.kind, s.key);
      const meta = s.meta;
      return {
        kind: s.kind,
        key: s.key,
        loaded: !!loaded,
        version: loaded?.version ?? null,
        changed_at: loaded?.changedAt ?? null,
        fetched_at: meta?.fetchedAt ?? null,
        age_seconds: s.ageSeconds === undefined ? null : Math.round(s.ageSeconds),
        stale: s.stale,
        /** Seconds without a successful fetch after which this snapshot counts as stale. */
        stale_after_seconds: s.staleAfterSeconds,
        failures: meta?.failures ?? 0,
        // The failing upstream names itself in the message ("kalshi: HTTP 503 from ..."); only while failing.
        ...(meta?.failures && meta.lastError ? { last_error: meta.lastError, last_error_at: meta.lastErrorAt ?? null, failure_reason: meta.lastReason ?? null } : {}),
      };
    });
    const priceFeed = priceFeedStaleness(deps.live.engine, deps.config.live.staleAfterMs, deps.now());
    const draining = deps.draining();
    const staleAssets = Object.keys(priceFeed).filter((a) => priceFeed[a]);
    const missing = [
      ...(draining ? ['draining'] : []),
      ...snapshots.filter((s) => !s.loaded).map((s) => `snapshot ${s.kind}/${s.key} not loaded`),
      ...(redisOk ? [] : ['redis']),
      ...snapshots.filter((s) => s.loaded && s.stale).map((s) => `snapshot ${s.kind}/${s.key} stale`),
      ...staleAssets.map((a) => `price feed ${a}`),
    ];
    const ready = !draining && snapshots.every((s) => s.loaded);
    const live = deps.live.engine.stats();
    const body: z.input<typeof ReadyBody> = {
      status: !ready ? 'not_ready' : missing.length > 0 ? 'degraded' : 'ready',
      missing,
      redis: redisOk ? 'ok' : 'unreachable',
      draining,
      snapshots,
      price_feed: { stale_assets: staleAssets, last_tick_at: live.lastTickAt },
      live: { ticks_applied: live.ticksApplied, bad_ticks: live.badTicks, last_tick_at: live.lastTickAt, quotes_held: live.quotesHeld, bad_quotes: live.badQuotes },
      websocket: { connections: await deps.wsConnections() },
    };
    return json(ready ? 200 : 503, body);
  };
}
