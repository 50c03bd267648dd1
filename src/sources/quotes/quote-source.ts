/**
 * A source of venue up/down quotes (src/model/live.ts VenueQuoteMessage) for the feed process.
 * A source reports what it holds for each (asset, horizon) window; the sink decides what goes out.
 */
import type { Asset, Horizon, VenueQuoteMessage } from '../../model/index.js';

export interface QuoteSink {
  /** The venue's current quote for a window (asks null when its book has no usable ask). */
  put(quote: VenueQuoteMessage): void;
  /** The venue has no quote for this (asset, horizon) now: no market found, or its feed is down. */
  drop(asset: Asset, horizonMinutes: Horizon, operatorId: string): void;
}

export interface QuoteSource {
  readonly name: string;
  /** Starts discovering markets and streaming quotes; resolves at once (the network may still be connecting). */
  start(sink: QuoteSink): Promise<void>;
  stop(): Promise<void>;
}

/** Best asks of the two sides; both null when either side has no usable ask (the venue is out for now). */
export interface UpDownAsks {
  up: number | null;
  down: number | null;
}

export const NO_ASKS: UpDownAsks = { up: null, down: null };

/** A price that can be paid for a binary contract: strictly between 0 and 1. */
export const tradable = (p: number | undefined): p is number => p !== undefined && Number.isFinite(p) && p > 0 && p < 1;
