/**
 * Operator metrics derived from what the real events and sportsbook sources last fetched (no extra
 * upstream): a prediction venue's 24-hour volume, open interest and liquidity are the sums over the
 * open catalog markets it lists (each market once, both its YES and NO outcomes sharing it), by the
 * event's category, or null (unknown) when any part is unknown or no market backs the figure; active events count the events and matchups it prices. A sportsbook publishes
 * no handle, so its volume is 0.
 */
import { OPERATORS } from '../../catalog/operators.js';
import type { Category, EventsData, LeagueData, MetricsData, OperatorMetrics, VenueMarket } from '../../model/index.js';
import type { EventCatalog } from '../../catalog/events/schema.js';
import type { FetchContext, MetricsSource } from '../source.js';

/** The venue markets of the last good events fetch, with the catalog category each belongs to. */
export interface MarketsWithCategory {
  data: EventsData;
  markets: readonly VenueMarket[];
  /** Keyed by {@link marketKey}. */
  categories: ReadonlyMap<string, Category>;
}

export interface DerivedInputs {
  events(ctx: FetchContext): Promise<MarketsWithCategory>;
  leagues(): readonly LeagueData[];
}

/** A venue market's key: `kalshi:{ticker}` or `polymarket:{eventSlug}/{marketSlug}`. */
export function marketKey(m: Pick<VenueMarket, 'venue' | 'id' | 'eventId'>): string {
  return m.venue === 'kalshi' ? `kalshi:${m.id}` : `polymarket:${m.eventId}/${m.id}`;
}

/** Which catalog category each referenced market belongs to, keyed by {@link marketKey}. */
export function catalogCategories(catalog: EventCatalog): Map<string, Category> {
  const out = new Map<string, Category>();
  for (const ev of catalog) {
    for (const r of ev.outcomes.flatMap((o) => o.refs)) {
      const key = r.operator === 'kalshi' ? `kalshi:${r.ticker}` : `polymarket:${r.eventSlug}/${r.marketSlug}`;
      out.set(key, ev.category);
    }
  }
  return out;
}

/** Pure: metrics from the fetched markets (each counted once), the events built from them, and leagues. */
export function deriveMetrics(input: MarketsWithCategory, leagues: readonly LeagueData[]): MetricsData {
  const operators = OPERATORS.map((op): OperatorMetrics => {
    const byCat: Partial<Record<Category, number>> = {};
    let volume = 0;
    let oi: number | null = 0;
    let liquidity: number | null = 0;
    let counted = 0;
    for (const m of input.markets) {
      const category = input.categories.get(marketKey(m));
      if (m.venue !== op.id || !category || !m.open) continue;
      // A malformed volume (null, reported by the source) adds nothing: the venue's other markets still count.
      byCat[category] = (byCat[category] ?? 0) + (m.volume24hUsd ?? 0);
      volume += m.volume24hUsd ?? 0;
      counted++;
      // One unknown part makes the sum unknown: a partial sum would read as a real, smaller figure.
      oi = oi === null || m.openInterestUsd === null ? null : oi + m.openInterestUsd;
      liquidity = liquidity === null || m.liquidityUsd === null ? null : liquidity + m.liquidityUsd;
    }
    let active = input.data.events.filter((ev) =>
      ev.outcomes.some((o) => o.quotes.some((q) => q.operatorId === op.id)),
    ).length;
    for (const lg of leagues) for (const mu of lg.upcoming) if (mu.books.some((b) => b.operatorId === op.id)) active++;
    const volumeByCategoryUsd: Partial<Record<Category, number>> = {};
    for (const [c, v] of Object.entries(byCat) as [Category, number][]) volumeByCategoryUsd[c] = Math.round(v);
    return {
      operatorId: op.id,
      volume24hUsd: Math.round(volume),
      // No market behind the figure (a sportsbook publishes none): unknown, not zero.
      openInterestUsd: counted > 0 && oi !== null ? Math.round(oi) : null,
      liquidityUsd: counted > 0 && liquidity !== null ? Math.round(liquidity) : null,
      activeEvents: active,
      volumeByCategoryUsd,
    };
  });
  return { operators };
}

/** A metrics source over the real sources' last results. */
export function createDerivedMetricsSource(inputs: DerivedInputs): MetricsSource {
  return {
    name: 'derived',
    async fetchMetrics(ctx) {
      return deriveMetrics(await inputs.events(ctx), inputs.leagues());
    },
  };
}
