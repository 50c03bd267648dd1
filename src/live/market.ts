/** Live-market vocabulary: assets, horizons, topics and the tick wire format (DESIGN.md). */
import { z } from 'zod';
import { IsoTime } from '../model/index.js';

export const ASSETS = ['BTC', 'ETH', 'SOL'] as const;
export type Asset = (typeof ASSETS)[number];
export const HORIZONS = [5, 15] as const;
export type Horizon = (typeof HORIZONS)[number];

/** `{"asset":"BTC","price":97012.55,"ts":"2026-11-22T14:05:01.123Z","source":"coinbase"}` on `pw:ticks:{ASSET}`. */
export const Tick = z.object({
  asset: z.enum(ASSETS),
  price: z.number().positive().finite(),
  ts: IsoTime,
  source: z.string().min(1).max(40),
});
export type Tick = z.infer<typeof Tick>;

export const liveTopic = (asset: Asset, horizon: Horizon) => `live-market:${asset}:${horizon}`;
