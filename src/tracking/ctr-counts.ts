/** Reads clicks and impressions per operator over a rolling window of UTC days. */
import type { Redis } from 'ioredis';
import { clicksByKey, utcDay } from './click-counter.js';
import { impressionsKey } from './impression-writes.js';

/**
 * The widget classes that count impressions (broad and event; the live market and sportsbook polls
 * come every few seconds and count none). A rate's clicks come from the same widgets, or a click on
 * a live-market link would raise a CTR whose impressions never saw it.
 */
export const CTR_WIDGETS = ['broad', 'event-specific'] as const;

export interface CtrCounts {
  clicks: number;
  impressions: number;
}

/** The `days` UTC days ending with today's, newest first. */
export function windowDays(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => utcDay(new Date(now.getTime() - i * 86_400_000)));
}

/** Totals over the window for each operator, in one pipeline. */
export async function readCtrCounts(
  redis: Redis,
  operatorIds: readonly string[],
  now: Date,
  days: number,
): Promise<Map<string, CtrCounts>> {
  const dayList = windowDays(now, days);
  const pipe = redis.pipeline();
  for (const id of operatorIds) {
    // PFCOUNT of several keys counts their union: a visitor who clicked in both widgets counts once.
    for (const day of dayList)
      pipe
        .pfcount(...CTR_WIDGETS.map((w) => clicksByKey(id, day, `widget:${w}`)))
        .hget(impressionsKey(id, day), 'total');
  }
  const results = (await pipe.exec()) ?? [];
  const out = new Map<string, CtrCounts>();
  let i = 0;
  for (const id of operatorIds) {
    const c: CtrCounts = { clicks: 0, impressions: 0 };
    for (let d = 0; d < dayList.length; d++) {
      const [clickErr, clicks] = results[i++] ?? [null, null];
      const [imprErr, impressions] = results[i++] ?? [null, null];
      if (clickErr || imprErr) throw clickErr ?? imprErr;
      c.clicks += Number(clicks ?? 0);
      c.impressions += Number(impressions ?? 0);
    }
    // A rate above 1 is not a rate: clicks on links from outside the window, or noise, are capped.
    c.clicks = Math.min(c.clicks, c.impressions);
    out.set(id, c);
  }
  return out;
}
