/**
 * An event's past prices from the venues' own history endpoints, for backfilling a new event's
 * history (store/history-backfill.ts): per outcome and venue, our outcome's YES ask (and bid, where
 * the venue gives one) over a window. Polymarket's `/prices-history` gives one price per point (used
 * as the ask); Kalshi's candlesticks give the closing YES bid and ask, turned around where our
 * outcome is the venue's NO side.
 */
import { indexMarkets, onNoSide, refId } from '../../catalog/events/build.js';
import type { EventCatalog } from '../../catalog/events/schema.js';
import type { HistoryWindow, MarketEvent, VenueMarket, VenueSeries } from '../../model/index.js';
import type { KalshiClient } from '../kalshi/client.js';
import { seriesOf } from '../../catalog/kalshi-pages.js';
import { mapLimit } from '../http/paginate.js';
import type { PolymarketClient } from '../polymarket/client.js';

export interface VenueHistoryDeps {
  catalog: EventCatalog;
  kalshi?: KalshiClient;
  polymarket?: PolymarketClient;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The venue series of `event` (as published: only the outcomes and operators it quotes now) over
 * `window`, from the venue markets of the last fetch. A reference whose market is unknown is skipped.
 */
export async function fetchVenueHistory(
  deps: VenueHistoryDeps,
  markets: readonly VenueMarket[],
  event: MarketEvent,
  window: HistoryWindow,
  signal?: AbortSignal,
): Promise<VenueSeries[]> {
  const entry = deps.catalog.find((e) => e.slug === event.slug);
  if (!entry) return [];
  const index = indexMarkets(markets);
  const jobs = event.outcomes.flatMap((o) => {
    const refs = entry.outcomes.find((c) => c.name === o.name)?.refs ?? [];
    return refs
      .filter((r) => o.quotes.some((q) => q.operatorId === r.operator))
      .flatMap((r) => {
        const m = (r.operator === 'kalshi' ? index.kalshi : index.polymarket).get(refId(r));
        const no = m ? onNoSide(r, m) : undefined;
        return m && typeof no === 'boolean' ? [{ outcome: o.name, ref: r, market: m, no }] : [];
      });
  });
  const series = await mapLimit(jobs, 4, async ({ outcome, ref, market, no }): Promise<VenueSeries | undefined> => {
    if (ref.operator === 'polymarket') {
      const token = no ? market.tokenIds?.no : market.tokenIds?.yes;
      if (!deps.polymarket || !token) return undefined;
      const points = await deps.polymarket.pricesHistory(
        token,
        window.fromSec,
        window.toSec,
        window.stepMinutes,
        signal,
      );
      return {
        outcome,
        operatorId: 'polymarket',
        points: points.filter((p) => p.p > 0 && p.p < 1).map((p) => ({ t: p.t, ask: p.p, bid: null })),
      };
    }
    if (!deps.kalshi) return undefined;
    // Kalshi has 1-minute and hourly candles; the store keeps the last of each 5-minute bucket.
    const candles = await deps.kalshi.candlesticks(
      seriesOf(market.eventId),
      market.id,
      window.fromSec,
      window.toSec,
      window.stepMinutes === 5 ? 1 : 60,
      signal,
    );
    const points = candles.flatMap((c) => {
      const ask = no ? (c.yesBid !== undefined ? round6(1 - c.yesBid) : undefined) : c.yesAsk;
      const bid = no ? (c.yesAsk !== undefined ? round6(1 - c.yesAsk) : undefined) : c.yesBid;
      return ask === undefined ? [] : [{ t: c.t, ask, bid: bid !== undefined && bid < ask ? bid : null }];
    });
    return { outcome, operatorId: 'kalshi', points };
  });
  return series.filter((s): s is VenueSeries => s !== undefined && s.points.length > 0);
}
