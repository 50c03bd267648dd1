/**
 * Polymarket clients: Gamma (events and markets, no auth) and the CLOB's `/price` for a live ask
 * when Gamma's market object has none.
 */
import type { Logger } from '../../runtime/log.js';
import { HttpClient, type Resilience } from '../http/client.js';
import { UpstreamShapeError } from '../http/errors.js';
import { chunk, collectPages } from '../http/paginate.js';
import { normalizePricesHistory, PricesHistory, type PricePoint } from './prices-history.js';
import { ClobPrice, KeysetPage, OpenInterestRows } from './schemas.js';

export const POLYMARKET_GAMMA_DEFAULT_URL = 'https://gamma-api.polymarket.com';
export const POLYMARKET_CLOB_DEFAULT_URL = 'https://clob.polymarket.com';
export const POLYMARKET_DATA_DEFAULT_URL = 'https://data-api.polymarket.com';

// The Data API's /oi takes at most 20 condition ids per call.
const OI_IDS_PER_CALL = 20;

export interface PolymarketClientOptions {
  gammaUrl?: string;
  clobUrl?: string;
  /** The Data API (open interest). */
  dataUrl?: string;
  timeoutMs?: number;
  /** Retry and circuit-breaker settings (defaults in src/sources/http/client.ts). */
  resilience?: Resilience;
  log?: Logger;
}

// Gamma's keyset listing serves up to 500 events a page; the offset listing is being retired.
const PAGE = 500;
const MAX_PAGES = 20;

/** A listing and whether the page cap (or a repeated cursor) cut it short. */
export interface Listing {
  events: unknown[];
  truncated?: string;
}

/** Gamma + CLOB REST client. */
export class PolymarketClient {
  private readonly gamma: HttpClient;
  private readonly clob: HttpClient;
  private readonly data: HttpClient;
  private readonly log: Logger | undefined;

  constructor(opts: PolymarketClientOptions = {}) {
    this.log = opts.log;
    const common = {
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...opts.resilience,
    };
    this.gamma = new HttpClient({
      name: 'polymarket-gamma',
      baseUrl: opts.gammaUrl ?? POLYMARKET_GAMMA_DEFAULT_URL,
      ...common,
    });
    this.clob = new HttpClient({
      name: 'polymarket-clob',
      baseUrl: opts.clobUrl ?? POLYMARKET_CLOB_DEFAULT_URL,
      ...common,
    });
    this.data = new HttpClient({
      name: 'polymarket-data',
      baseUrl: opts.dataUrl ?? POLYMARKET_DATA_DEFAULT_URL,
      ...common,
    });
  }

  /** One event with its markets (`GET /events/slug/{slug}`), raw. */
  async eventBySlug(slug: string, signal?: AbortSignal): Promise<unknown> {
    return (await this.gamma.getJson(`/events/slug/${encodeURIComponent(slug)}`, {}, signal)).body;
  }

  /**
   * Open events from Gamma's keyset listing (`GET /events/keyset?closed=false`, following
   * `next_cursor` as `after_cursor`), raw; `truncated` says why it stopped early, if it did.
   */
  async listEvents(signal?: AbortSignal, maxPages = MAX_PAGES): Promise<Listing> {
    let truncated: string | undefined;
    const events = await collectPages(
      async (cursor) => {
        const res = await this.gamma.getJson(
          '/events/keyset',
          { closed: false, limit: PAGE, after_cursor: cursor },
          signal,
        );
        const page = KeysetPage.safeParse(res.body);
        if (!page.success)
          throw new UpstreamShapeError(
            'polymarket-gamma',
            `/events/keyset envelope: ${page.error.issues[0]?.message ?? 'invalid'}`,
          );
        return { items: page.data.events, cursor: page.data.next_cursor };
      },
      maxPages,
      (why) => {
        truncated = why;
        this.log?.warn({ upstream: 'polymarket-gamma', why }, 'polymarket-gamma: event listing truncated');
      },
    );
    return truncated ? { events, truncated } : { events };
  }

  /**
   * Open interest in USD per market (`GET /oi?market=id,id`), keyed by lower-case conditionId. A
   * market the Data API does not list is absent (unknown), not 0.
   */
  async openInterest(conditionIds: readonly string[], signal?: AbortSignal): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const group of chunk([...new Set(conditionIds)], OI_IDS_PER_CALL)) {
      const res = await this.data.getJson('/oi', { market: group.join(',') }, signal);
      const parsed = OpenInterestRows.safeParse(res.body);
      if (!parsed.success)
        throw new UpstreamShapeError('polymarket-data', `/oi: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      for (const row of parsed.data) out.set(row.market.toLowerCase(), row.value);
    }
    return out;
  }

  /** A token's price history from `startTs` to `endTs` (Unix seconds), a point every `fidelityMinutes` (prices-history.ts). */
  async pricesHistory(
    tokenId: string,
    startTs: number,
    endTs: number,
    fidelityMinutes: number,
    signal?: AbortSignal,
  ): Promise<PricePoint[]> {
    const res = await this.clob.getJson(
      '/prices-history',
      { market: tokenId, startTs, endTs, fidelity: fidelityMinutes },
      signal,
    );
    const parsed = PricesHistory.safeParse(res.body);
    if (!parsed.success)
      throw new UpstreamShapeError(
        'polymarket-clob',
        `/prices-history: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    const { points, dropped } = normalizePricesHistory(parsed.data, tokenId);
    if (dropped.length > 0)
      this.log?.warn(
        { upstream: 'polymarket-clob', dropped: dropped.slice(0, 5), count: dropped.length },
        'polymarket-clob: history points dropped',
      );
    return points;
  }

  /**
   * The CLOB's best price for a token. As Polymarket's CLOB API documents it, side=SELL is the best ask
   * (what buying costs) and side=BUY the best bid. Undefined when the book has no such side.
   */
  async price(tokenId: string, side: 'BUY' | 'SELL', signal?: AbortSignal): Promise<number | undefined> {
    const res = await this.clob.getJson('/price', { token_id: tokenId, side }, signal);
    const parsed = ClobPrice.safeParse(res.body);
    if (!parsed.success) return undefined;
    const p = parsed.data.price;
    return p > 0 && p < 1 ? p : undefined;
  }
}
