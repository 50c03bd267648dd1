/** A source of spot-price ticks for the live-market engine. */
import type { Tick } from '../../model/index.js';

export interface PriceSource {
  readonly name: string;
  /** Starts emitting ticks; resolves once started (a network source may still be connecting). */
  start(onTick: (tick: Tick) => void): Promise<void>;
  stop(): Promise<void>;
}
