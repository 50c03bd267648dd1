/** What the serving layer reads: configuration, the snapshots, the payload cache and the clock. */
import type { Config } from '../config.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import type { RankingInputs } from '../tracking/ranking-inputs.js';
import type { PayloadCache } from './payload-cache.js';

export interface ServeContext {
  config: Config;
  snapshots: SnapshotCache;
  payloads: PayloadCache;
  /** In-memory ranking signals (OI acceleration, CTR counts). */
  ranking: RankingInputs;
  /** Milliseconds since the epoch (a Date only where a build needs one: none per request). */
  now(): number;
}
