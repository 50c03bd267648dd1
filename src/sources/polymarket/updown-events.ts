/**
 * Polymarket's recurring crypto "Up or Down" events on Gamma. Each window has its own event whose
 * slug is `{btc|eth|sol}-updown-{5m|15m}-{windowStartEpochSec}`; it holds one market with outcomes
 * "Up" and "Down" and their CLOB token ids. `eventMetadata.priceToBeat` is the venue's start
 * price; Gamma fills it some time after the window opens, so it may be missing at first.
 */
import { z } from 'zod';
import type { Asset, Horizon } from '../../model/index.js';
import { GammaEvent, GammaMarket, Numeric } from './schemas.js';

/** The Gamma slug of the (asset, horizon) event whose window starts at `windowStartMs`. */
export function upDownSlug(asset: Asset, horizonMinutes: Horizon, windowStartMs: number): string {
  return `${asset.toLowerCase()}-updown-${horizonMinutes}m-${Math.floor(windowStartMs / 1000)}`;
}

export interface UpDownMarket {
  slug: string;
  windowStartMs: number;
  endMs: number;
  upToken: string;
  downToken: string;
  /** The venue's start price ("price to beat"), null until Gamma publishes it. */
  priceToBeat: number | null;
  marketUrl: string;
}

const UpDownEvent = GammaEvent.extend({
  closed: z.boolean().optional(),
  eventMetadata: z.object({ priceToBeat: Numeric.optional() }).nullish(),
});

/**
 * The event for one window as an UpDownMarket, or undefined when it is not that window's open
 * up/down market (wrong slug, closed, no Up/Down tokens).
 */
export function parseUpDownEvent(
  raw: unknown,
  asset: Asset,
  horizonMinutes: Horizon,
  windowStartMs: number,
): UpDownMarket | undefined {
  const slug = upDownSlug(asset, horizonMinutes, windowStartMs);
  const event = UpDownEvent.safeParse(raw);
  if (!event.success || event.data.slug !== slug || event.data.closed) return undefined;
  const market = GammaMarket.safeParse(event.data.markets[0]);
  if (!market.success || market.data.closed || !market.data.clobTokenIds) return undefined;
  const names = market.data.outcomes.map((o) => o.toLowerCase());
  const upToken = market.data.clobTokenIds[names.indexOf('up')];
  const downToken = market.data.clobTokenIds[names.indexOf('down')];
  if (!upToken || !downToken) return undefined;
  const beat = event.data.eventMetadata?.priceToBeat;
  return {
    slug,
    windowStartMs,
    endMs: windowStartMs + horizonMinutes * 60_000,
    upToken,
    downToken,
    priceToBeat: beat !== undefined && beat > 0 ? beat : null,
    marketUrl: `https://polymarket.com/event/${slug}`,
  };
}
