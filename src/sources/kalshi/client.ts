/**
 * Kalshi trade API v2 client (market data needs no key). Listings are cursor-paginated; the
 * envelope is validated here, each market by the normalizer.
 */
import type { Logger } from '../../runtime/log.js';
import { HttpClient, type Resilience } from '../http/client.js';
import { UpstreamShapeError } from '../http/errors.js';
import { chunk, collectPages } from '../http/paginate.js';
import { CandlesticksPage, normalizeCandlesticks, type CandleQuote } from './candlesticks.js';
import { EventsPage, MarketsPage } from './schemas.js';

export const KALSHI_DEFAULT_BASE_URL = 'https://external-api.kalshi.com/trade-api/v2';

export interface KalshiClientOptions {
  baseUrl?: string;
  timeoutMs?: number;
  /** Retry and circuit-breaker settings (defaults in src/sources/http/client.ts). */
  resilience?: Resilience;
  log?: Logger;
}

// Kalshi documents limit <= 1000 for /markets and <= 200 for /events; a ticker list is kept short
// so the URL stays well under common proxy limits.
const TICKERS_PER_CALL = 50;

/** The Kalshi REST client. */
export class KalshiClient {
  private readonly http: HttpClient;
  private readonly log: Logger | undefined;

  constructor(opts: KalshiClientOptions = {}) {
    this.log = opts.log;
    this.http = new HttpClient({
      name: 'kalshi',
      baseUrl: opts.baseUrl ?? KALSHI_DEFAULT_BASE_URL,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...opts.resilience,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }

  private truncated(path: string) {
    return (why: string) => this.log?.warn({ upstream: 'kalshi', path, why }, 'kalshi: listing truncated');
  }

  /** Exactly these markets (`GET /markets?tickers=`), every page, raw. */
  async marketsByTicker(tickers: readonly string[], signal?: AbortSignal): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const group of chunk([...new Set(tickers)], TICKERS_PER_CALL)) {
      out.push(...(await this.listMarkets({ tickers: group.join(',') }, signal)));
    }
    return out;
  }

  /** `GET /markets` with filters, following the cursor, raw. Multivariate parlays excluded. */
  async listMarkets(
    filter: { tickers?: string; series_ticker?: string; event_ticker?: string; status?: string },
    signal?: AbortSignal,
  ): Promise<unknown[]> {
    return collectPages(
      async (cursor) => {
        const res = await this.http.getJson(
          '/markets',
          { ...filter, limit: 1000, mve_filter: 'exclude', cursor },
          signal,
        );
        const page = MarketsPage.safeParse(res.body);
        if (!page.success)
          throw new UpstreamShapeError('kalshi', `/markets envelope: ${page.error.issues[0]?.message ?? 'invalid'}`);
        return { items: page.data.markets, cursor: page.data.cursor };
      },
      undefined,
      this.truncated('/markets'),
    );
  }

  /**
   * One page of `GET /markets` (enough for a series' few open markets) with the time the venue
   * answered, from its `Date` header (epoch ms; undefined when absent or unreadable): polled quotes
   * are judged by the venue's clock, not ours.
   */
  async marketsPage(
    filter: { series_ticker?: string; status?: string },
    signal?: AbortSignal,
  ): Promise<{ markets: unknown[]; answeredAt: number | undefined }> {
    const res = await this.http.getJson('/markets', { ...filter, limit: 1000, mve_filter: 'exclude' }, signal);
    const page = MarketsPage.safeParse(res.body);
    if (!page.success)
      throw new UpstreamShapeError('kalshi', `/markets envelope: ${page.error.issues[0]?.message ?? 'invalid'}`);
    const date = Date.parse(res.headers.get('date') ?? '');
    return { markets: page.data.markets, answeredAt: Number.isNaN(date) ? undefined : date };
  }

  /** A market's closing quotes per `periodMinutes` (1, 60 or 1440) from `startTs` to `endTs`, Unix seconds (candlesticks.ts). */
  async candlesticks(
    series: string,
    ticker: string,
    startTs: number,
    endTs: number,
    periodMinutes: 1 | 60 | 1440,
    signal?: AbortSignal,
  ): Promise<CandleQuote[]> {
    const path = `/series/${encodeURIComponent(series)}/markets/${encodeURIComponent(ticker)}/candlesticks`;
    const res = await this.http.getJson(
      path,
      { start_ts: startTs, end_ts: endTs, period_interval: periodMinutes },
      signal,
    );
    const page = CandlesticksPage.safeParse(res.body);
    if (!page.success)
      throw new UpstreamShapeError('kalshi', `candlesticks envelope: ${page.error.issues[0]?.message ?? 'invalid'}`);
    const { quotes, dropped } = normalizeCandlesticks(page.data, ticker);
    if (dropped.length > 0)
      this.log?.warn(
        { upstream: 'kalshi', dropped: dropped.slice(0, 5), count: dropped.length },
        'kalshi: candles dropped',
      );
    return quotes;
  }

  /** `GET /events?with_nested_markets=true`, following the cursor, raw. */
  async listEvents(filter: { status?: string; series_ticker?: string } = {}, signal?: AbortSignal): Promise<unknown[]> {
    return collectPages(
      async (cursor) => {
        const res = await this.http.getJson(
          '/events',
          { ...filter, with_nested_markets: true, limit: 200, cursor },
          signal,
        );
        const page = EventsPage.safeParse(res.body);
        if (!page.success)
          throw new UpstreamShapeError('kalshi', `/events envelope: ${page.error.issues[0]?.message ?? 'invalid'}`);
        return { items: page.data.events, cursor: page.data.cursor };
      },
      undefined,
      this.truncated('/events'),
    );
  }
}
