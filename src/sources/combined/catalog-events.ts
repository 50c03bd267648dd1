/**
 * The real events source: fetches exactly the Kalshi and Polymarket markets the reviewed catalog
 * references and builds EventsData from the catalog. A venue that fails fails the refresh (the
 * worker keeps the last good snapshot, where both venues' prices are still consistent); a bad,
 * closed, delisted or 404 market (or Gamma slug, or CLOB token) only costs its own quote, and is
 * reported in `ctx.dropped` (the snapshot meta).
 */
import { buildCatalogEvents, indexMarkets } from '../../catalog/events/build.js';
import type { EventCatalog, PolymarketRef } from '../../catalog/events/schema.js';
import type { Logger } from '../../runtime/log.js';
import type { EventsData, HistoryWindow, MarketEvent, VenueMarket, VenueSeries } from '../../model/index.js';
import { catalogCategories, marketKey, type MarketsWithCategory } from './derived-metrics.js';
import { UpstreamHttpError } from '../http/errors.js';
import { reportDropped } from '../http/parse.js';
import type { Dropped } from '../quality/dropped.js';
import { holdFigureJumps } from '../quality/figure-jumps.js';
import { withoutBrokenBooks, withoutRelabelled } from '../quality/markets.js';
import { mapLimit } from '../http/paginate.js';
import type { KalshiClient } from '../kalshi/client.js';
import { normalizeKalshiMarkets } from '../kalshi/normalize.js';
import type { PolymarketClient } from '../polymarket/client.js';
import { normalizeGammaEvents } from '../polymarket/normalize.js';
import type { EventsSource, FetchContext } from '../source.js';
import { fetchVenueHistory } from './venue-history.js';

export interface CatalogEventsOptions {
  catalog: EventCatalog;
  kalshi?: KalshiClient;
  polymarket?: PolymarketClient;
  log?: Logger;
}

/** An events source that also remembers the venue markets of its last good fetch (for metrics). */
export interface CatalogEventsSource extends EventsSource {
  /** The last accepted fetch: its data, the venue markets behind it and their categories; undefined before the first. */
  last(): MarketsWithCategory | undefined;
  /** The refresh published `data` (it passed validation and the quality gate): metrics may use it. */
  accept(data: EventsData): void;
  /** An event's past prices from the venues' history endpoints, for a new event's backfill (venue-history.ts). */
  history(event: MarketEvent, window: HistoryWindow, signal?: AbortSignal): Promise<VenueSeries[]>;
}

async function kalshiMarkets(
  client: KalshiClient,
  catalog: EventCatalog,
  ctx: FetchContext,
  log?: Logger,
): Promise<VenueMarket[]> {
  const tickers = catalog.flatMap((e) =>
    e.outcomes.flatMap((o) => o.refs.flatMap((r) => (r.operator === 'kalshi' ? [r.ticker] : []))),
  );
  if (tickers.length === 0) return [];
  const { markets, dropped } = normalizeKalshiMarkets(await client.marketsByTicker(tickers, ctx.signal), ctx.now);
  reportDropped(log, 'kalshi', 'markets', dropped, ctx.dropped);
  return markets;
}

async function polymarketMarkets(
  client: PolymarketClient,
  catalog: EventCatalog,
  ctx: FetchContext,
  log?: Logger,
): Promise<VenueMarket[]> {
  const refs = catalog.flatMap((e) =>
    e.outcomes.flatMap((o) => o.refs.filter((r): r is PolymarketRef => r.operator === 'polymarket')),
  );
  const slugs = [...new Set(refs.map((r) => r.eventSlug))];
  if (slugs.length === 0) return [];
  // Gamma's /events budget is 500 per 10 s; a few at a time is plenty. A slug that is gone (404:
  // renamed or removed) costs only its own markets.
  const gone: Dropped[] = [];
  const raw = await mapLimit(slugs, 4, async (slug) => {
    try {
      return await client.eventBySlug(slug, ctx.signal);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      gone.push({ id: slug, reason: 'event slug not found (404): renamed or removed', class: 'missing' });
      return undefined;
    }
  });
  const { markets, dropped } = normalizeGammaEvents(
    raw.filter((r) => r !== undefined),
    ctx.now,
  );
  reportDropped(log, 'polymarket', 'markets', [...gone, ...dropped], ctx.dropped);
  // Gamma sometimes omits bestAsk/bestBid; the CLOB's book is the authority then.
  const wanted = new Set(refs.map((r) => `${r.eventSlug}/${r.marketSlug}`));
  await mapLimit(
    markets.filter(
      (m) =>
        m.open && m.tokenIds && wanted.has(`${m.eventId}/${m.id}`) && (m.yesAsk === undefined || m.noAsk === undefined),
    ),
    4,
    async (m) => {
      const tokens = m.tokenIds!;
      // A token without a book (404) has no ask: that side stays unpriced, the rest is kept.
      const ask = (token: string) =>
        client.price(token, 'SELL', ctx.signal).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
          ctx.dropped?.push({
            id: `polymarket:${m.eventId}/${m.id}`,
            reason: `CLOB token ${token.slice(0, 24)}… has no order book (404)`,
            class: 'missing',
          });
          return undefined;
        });
      if (m.yesAsk === undefined) {
        const p = await ask(tokens.yes);
        if (p !== undefined) m.yesAsk = p;
      }
      if (m.noAsk === undefined) {
        const p = await ask(tokens.no);
        if (p !== undefined) m.noAsk = p;
      }
    },
  );
  await addOpenInterest(
    client,
    markets.filter((m) => wanted.has(`${m.eventId}/${m.id}`)),
    ctx,
    log,
  );
  return markets;
}

/**
 * Polymarket open interest from the Data API (`/oi`). Secondary: when it fails, open interest
 * stays unknown (null) and the prices are still published.
 */
async function addOpenInterest(
  client: PolymarketClient,
  markets: VenueMarket[],
  ctx: FetchContext,
  log?: Logger,
): Promise<void> {
  const ids = markets.flatMap((m) => (m.conditionId ? [m.conditionId] : []));
  if (ids.length === 0) return;
  try {
    const oi = await client.openInterest(ids, ctx.signal);
    for (const m of markets) {
      const v = m.conditionId ? oi.get(m.conditionId.toLowerCase()) : undefined;
      if (v !== undefined) m.openInterestUsd = Math.round(v * 100) / 100;
    }
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    log?.debug(
      { err: err instanceof Error ? err.message : String(err) },
      'polymarket open interest unavailable; left unknown',
    );
  }
}

const isNotFound = (err: unknown) => err instanceof UpstreamHttpError && err.status === 404;

/** Creates the catalog-driven events source over the given venue clients. */
export function createCatalogEventsSource(opts: CatalogEventsOptions): CatalogEventsSource {
  const name = [opts.kalshi && 'kalshi', opts.polymarket && 'polymarket'].filter(Boolean).join('+');
  // A fetch becomes `last` only once accepted, so metrics never derive from one the gate refused.
  let pending: MarketsWithCategory | undefined;
  let last: MarketsWithCategory | undefined;
  const categories = catalogCategories(opts.catalog);
  // When each held volume or open interest was first seen to jump (this process's memory).
  const figureHolds = new Map<string, number>();
  return {
    name,
    last: () => last,
    accept: (data) => {
      if (pending?.data === data) last = pending;
    },
    history: async (event, window, signal) =>
      last ? fetchVenueHistory(opts, last.markets, event, window, signal) : [],
    async fetchEvents(ctx: FetchContext): Promise<EventsData> {
      // When one venue fails the fetch is lost anyway: stop the other venue's calls and retries.
      const stop = new AbortController();
      const inner: FetchContext = {
        ...ctx,
        signal: ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal,
      };
      const abortOnError = <T>(p: Promise<T>): Promise<T> =>
        p.catch((err: unknown) => {
          stop.abort(err);
          throw err;
        });
      const [k, p] = await Promise.all([
        opts.kalshi ? abortOnError(kalshiMarkets(opts.kalshi, opts.catalog, inner, opts.log)) : Promise.resolve([]),
        opts.polymarket
          ? abortOnError(polymarketMarkets(opts.polymarket, opts.catalog, inner, opts.log))
          : Promise.resolve([]),
      ]);
      // A crossed or unmirrored book, or labels moved against their tokens since the last accepted
      // fetch, is a broken market: it costs only its own quotes, and is reported.
      const books = withoutBrokenBooks([...k, ...p], (m) => categories.has(marketKey(m)));
      const relabelled = withoutRelabelled(books.markets, last?.markets ?? []);
      // A volume or open interest that jumped since the last accepted fetch is held (figure-jumps.ts).
      const { markets, dropped: jumps } = holdFigureJumps(
        relabelled.markets,
        last?.markets ?? [],
        ctx.now,
        figureHolds,
      );
      ctx.dropped?.push(...books.dropped, ...relabelled.dropped, ...jumps);
      const catalog = opts.catalog
        .map((e) => ({
          ...e,
          outcomes: e.outcomes.map((o) => ({
            ...o,
            refs: o.refs.filter((r) => (r.operator === 'kalshi' ? !!opts.kalshi : !!opts.polymarket)),
          })),
        }))
        .map((e) => ({ ...e, outcomes: e.outcomes.filter((o) => o.refs.length > 0) }))
        .filter((e) => e.outcomes.length > 0);
      const { data, skipped } = buildCatalogEvents(catalog, indexMarkets(markets));
      if (skipped.length > 0)
        opts.log?.debug({ skipped: skipped.slice(0, 30), count: skipped.length }, 'catalog quotes skipped');
      // Items that should have been there (delisted, re-listed, 404) are marked in the meta; a
      // market that is merely closed or has no ask on one side is not news, and one the venues'
      // normalizers or the checks above already reported is not reported twice.
      const known = new Set(ctx.dropped?.map((d) => d.id));
      for (const s of skipped) {
        if (s.ref && !known.has(s.ref) && !/^(market not open|no live)/.test(s.reason)) {
          ctx.dropped?.push({
            id: s.ref,
            reason: `${s.event}/${s.outcome}: ${s.reason}`,
            class: s.reason.startsWith('match guard') ? 'guard' : 'missing',
          });
        }
      }
      pending = { data, markets, categories };
      return data;
    },
  };
}
