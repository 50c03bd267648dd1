/** Liveness and readiness. */
import { EXPECTED_SNAPSHOTS } from '../../store/keys.js';
import { readMeta } from '../../store/snapshots.js';
import type { Deps } from '../deps.js';
import { json } from '../respond.js';
import type { Handler } from '../types.js';

export const healthRoute = (): Handler => () => json(200, { status: 'ok' });

/**
 * Ready when Redis answers and every expected snapshot is loaded in this process and was fetched
 * recently (within STALE_AFTER_INTERVALS refresh intervals of its kind).
 */
export function readyRoute(deps: Deps): Handler {
  return async () => {
    const now = deps.now().getTime();
    let redisOk = true;
    try {
      await withTimeout(deps.redis.ping(), 1_000);
    } catch {
      redisOk = false;
    }
    const snapshots = await Promise.all(
      EXPECTED_SNAPSHOTS.map(async ({ kind, key }) => {
        const loaded = deps.snapshots.get(kind, key);
        const meta = redisOk ? await readMeta(deps.redis, kind, key).catch(() => undefined) : undefined;
        const maxAgeMs = deps.config.refreshSeconds[kind] * deps.config.staleAfterIntervals * 1000;
        const fetchedAt = meta?.fetchedAt ? Date.parse(meta.fetchedAt) : undefined;
        const fresh = fetchedAt !== undefined && now - fetchedAt <= maxAgeMs;
        return {
          kind,
          key,
          loaded: !!loaded,
          version: loaded?.version ?? null,
          changed_at: loaded?.changedAt ?? null,
          fetched_at: meta?.fetchedAt ?? null,
          stale: !fresh,
          /** Seconds without a successful fetch after which this snapshot counts as stale. */
          stale_after_seconds: maxAgeMs / 1000,
          failures: meta?.failures ?? 0,
          // The failing upstream names itself in the message ("kalshi: HTTP 503 from ..."); only while failing.
          ...(meta?.failures && meta.lastError ? { last_error: meta.lastError, last_error_at: meta.lastErrorAt ?? null, failure_reason: meta.lastReason ?? null } : {}),
        };
      }),
    );
    const ready = redisOk && snapshots.every((s) => s.loaded && !s.stale);
    const live = deps.live.engine.stats();
    return json(ready ? 200 : 503, {
      status: ready ? 'ready' : 'not_ready',
      redis: redisOk ? 'ok' : 'unreachable',
      snapshots,
      live: { ticks_applied: live.ticksApplied, bad_ticks: live.badTicks, last_tick_at: live.lastTickAt },
      websocket: { connections: deps.wsConnections() },
    });
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
