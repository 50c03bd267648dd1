import type { Asset, Horizon } from '../model/index.js';

/** The WebSocket topic of one live market (docs/contract.md). */
export const liveTopic = (asset: Asset, horizon: Horizon) => `live-market:${asset}:${horizon}`;
