/**
 * Open-interest history per operator, for the ranking's OI acceleration. The metrics job appends
 * each run's figure to a sorted set per operator (score = epoch ms), trimmed by age and count;
 * API processes read it when the metrics snapshot changes, never per request.
 */
import type { Redis } from 'ioredis';
import type { OiPoint } from '../domain/ranking.js';
import type { MetricsData } from '../model/index.js';

export const oiHistoryKey = (operatorId: string) => `pw:oi:${operatorId}`;

/** Hard cap of samples per operator, whatever the refresh interval. */
export const OI_MAX_POINTS = 5_000;

/** Appends every operator's known open interest at `now`, dropping samples older than `retentionMs`. */
export async function appendOiHistory(
  redis: Redis,
  metrics: MetricsData,
  now: Date,
  retentionMs: number,
): Promise<void> {
  const t = now.getTime();
  const pipe = redis.multi();
  for (const m of metrics.operators) {
    if (m.openInterestUsd === null) continue; // unknown: no sample, so the ranking treats it as neutral
    const key = oiHistoryKey(m.operatorId);
    // The time in the member keeps equal values at different times distinct.
    pipe
      .zadd(key, t, `${t}:${m.openInterestUsd}`)
      .zremrangebyscore(key, '-inf', `(${t - retentionMs}`)
      .zremrangebyrank(key, 0, -(OI_MAX_POINTS + 1))
      .pexpire(key, retentionMs * 2);
  }
  await pipe.exec();
}

/** Samples since `sinceMs` per operator, oldest first; malformed members are skipped. */
export async function readOiHistory(
  redis: Redis,
  operatorIds: readonly string[],
  sinceMs: number,
): Promise<Map<string, OiPoint[]>> {
  const pipe = redis.pipeline();
  for (const id of operatorIds) pipe.zrangebyscore(oiHistoryKey(id), sinceMs, '+inf');
  const results = (await pipe.exec()) ?? [];
  const out = new Map<string, OiPoint[]>();
  operatorIds.forEach((id, i) => {
    const [err, members] = results[i] ?? [null, []];
    if (err) throw err;
    const points: OiPoint[] = [];
    for (const m of (members as string[] | null) ?? []) {
      const [t, oi] = m.split(':').map(Number);
      if (Number.isFinite(t) && Number.isFinite(oi)) points.push({ t: t!, oi: oi! });
    }
    out.set(id, points);
  });
  return out;
}
