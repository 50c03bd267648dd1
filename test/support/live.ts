/** Publishing live-market source data the way the feed processes do (wire contracts in src/store/keys.ts). */
import type { Redis } from 'ioredis';
import type { Asset, Horizon, Tick, VenueQuoteMessage } from '../../src/model/index.js';
import { windowAt } from '../../src/live/window.js';
import { quoteKey, quotesChannel, strikeKey, ticksChannel } from '../../src/store/keys.js';

/** Publishes a price tick on `pw:ticks:{ASSET}`. */
export const publishTick = (redis: Redis, asset: Asset, price: number, at = Date.now()) =>
  redis.publish(
    ticksChannel(asset),
    JSON.stringify({ asset, price, ts: new Date(at).toISOString(), source: 'test' } satisfies Tick),
  );

/**
 * Stores `price` as the strike of the current and the next window, as an instance that caught their
 * starts would: a service started mid-window has no strike of its own (it reports no_strike), and
 * the next window's key keeps a test going across a roll.
 */
export async function seedStrike(
  redis: Redis,
  asset: Asset,
  horizon: Horizon,
  price: number,
  now = Date.now(),
): Promise<void> {
  const w = windowAt(now, horizon);
  for (const startMs of [w.startMs, w.endMs])
    await redis.set(strikeKey(asset, horizon, startMs / 1000), String(price), 'EX', 3 * 60 * horizon);
}

/** Publishes a venue quote on `pw:quotes:{ASSET}` and keeps it at `pw:quote:{ASSET}:{h}:{operator}`, as the venue feed does. */
export async function publishQuote(redis: Redis, q: VenueQuoteMessage): Promise<void> {
  const body = JSON.stringify(q);
  await redis.set(quoteKey(q.asset, q.horizonMinutes, q.operatorId), body, 'EX', 30);
  await redis.publish(quotesChannel(q.asset), body);
}

/** A venue's quote for the `horizonMinutes` (default 5) BTC window containing `atMs`, stamped `atMs` by the feed and the venue; `over` changes any field. */
export function venueQuote(
  operatorId: string,
  up: number | null,
  down: number | null,
  atMs: number,
  over: Partial<VenueQuoteMessage> = {},
): VenueQuoteMessage {
  const w = windowAt(atMs, over.horizonMinutes ?? 5);
  return {
    asset: 'BTC',
    horizonMinutes: w.horizonMinutes as Horizon,
    operatorId,
    windowStart: new Date(w.startMs).toISOString(),
    expiresAt: new Date(w.endMs).toISOString(),
    up,
    down,
    strike: null,
    marketUrl: `https://${operatorId}.example/market`,
    ts: new Date(atMs).toISOString(),
    venueTs: new Date(atMs).toISOString(),
    source: 'test',
    ...over,
  };
}
