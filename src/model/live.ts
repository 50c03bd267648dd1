/** Live-market vocabulary: assets, horizons, the tick and venue-quote wire formats (docs/design.md). */
import { z } from 'zod';
import { IsoTime } from './common.js';

export const ASSETS = ['BTC', 'ETH', 'SOL'] as const;
export type Asset = (typeof ASSETS)[number];
export const HORIZONS = [5, 15] as const;
export type Horizon = (typeof HORIZONS)[number];

/**
 * `{"asset":"BTC","price":97012.55,"ts":"2026-11-22T14:05:01.123Z","source":"coinbase","variance":1.1e-8}`
 * on `pw:ticks:{ASSET}`.
 */
export const Tick = z.object({
  asset: z.enum(ASSETS),
  price: z.number().positive().finite(),
  ts: IsoTime,
  source: z.string().min(1).max(40),
  /**
   * Per-second variance of log price, as the feed has measured it up to this tick (live/volatility.ts):
   * one estimate for every API process, so they all price alike. Absent: the asset's prior.
   */
  variance: z.number().positive().finite().optional(),
});
export type Tick = z.infer<typeof Tick>;

/**
 * One venue's own quote for the current window of an (asset, horizon) up/down market, published by
 * the process that holds the venue connections on `pw:quotes:{ASSET}` and kept, latest per venue,
 * at `pw:quote:{ASSET}:{h}:{operatorId}` (EX 30) so an API process starting mid-window finds it.
 *
 * - `up` / `down`: the venue's best asks, before fees (fees are applied where prices are shown);
 *   both null when the book has no usable ask (empty or crossed): the venue is out for now.
 * - `strike`: the venue's own reference price for the window (Kalshi's strike, Polymarket's start
 *   price) when it publishes one, else null.
 * - The publisher re-sends every held quote at least every 5 s and on each change; a consumer treats
 *   a quote older than 15 s, or for another window, as absent.
 */
export const VenueQuoteMessage = z.object({
  asset: z.enum(ASSETS),
  horizonMinutes: z.union([z.literal(5), z.literal(15)]),
  operatorId: z.string().regex(/^[a-z][a-z0-9-]{1,39}$/),
  windowStart: IsoTime,
  expiresAt: IsoTime,
  up: z.number().gt(0).lt(1).nullable(),
  down: z.number().gt(0).lt(1).nullable(),
  strike: z.number().positive().finite().nullable(),
  marketUrl: z.url({ protocol: /^https$/ }),
  ts: IsoTime,
  venueTs: IsoTime,
  source: z.string().min(1).max(40),
});
export type VenueQuoteMessage = z.infer<typeof VenueQuoteMessage>;
