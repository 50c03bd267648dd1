/**
 * Polymarket clients: Gamma (events and markets, no auth) and the CLOB's `/price` for a live ask
 * when Gamma's market object has none.
 */
import type { Logger } from '../../log.js';
import { HttpClient, type Resilience } from '../http/client.js';
import { UpstreamShapeError } from '../http/errors.js';
import { ClobPrice } from './schemas.js';

export const POLYMARKET_GAMMA_DEFAULT_URL = 'https://gamma-api.polymarket.com';
export const POLYMARKET_CLOB_DEFAULT_URL = 'https://clob.polymarket.com';

export interface PolymarketClientOptions {
  gammaUrl?: string;
  clobUrl?: string;
  timeoutMs?: number;
  /** Retry and circuit-breaker settings (defaults in src/sources/http/client.ts). */
  resilience?: Resilience;
  log?: Logger;
}

// Gamma's offset pagination is capped around 2000 rows.
const PAGE = 100;
const MAX_OFFSET = 2000;

/** Gamma + CLOB REST client. */
export class PolymarketClient {
  private readonly gamma: HttpClient;
  private readonly clob: HttpClient;

  constructor(opts: PolymarketClientOptions = {}) {
    const common = { ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.log ? { log: opts.log } : {}), ...opts.resilience };
    this.gamma = new HttpClient({ name: 'polymarket-gamma', baseUrl: opts.gammaUrl ?? POLYMARKET_GAMMA_DEFAULT_URL, ...common });
    this.clob = new HttpClient({ name: 'polymarket-clob', baseUrl: opts.clobUrl ?? POLYMARKET_CLOB_DEFAULT_URL, ...common });
  }

  /** One event with its markets (`GET /events/slug/{slug}`), raw. */
  async eventBySlug(slug: string, signal?: AbortSignal): Promise<unknown> {
    return (await this.gamma.getJson(`/events/slug/${encodeURIComponent(slug)}`, {}, signal)).body;
  }

  /** Open events (`GET /events?active=true&closed=false`), offset-paginated, raw. */
  async listEvents(signal?: AbortSignal): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let offset = 0; offset < MAX_OFFSET; offset += PAGE) {
      const res = await this.gamma.getJson('/events', { active: true, closed: false, archived: false, limit: PAGE, offset }, signal);
      if (!Array.isArray(res.body)) throw new UpstreamShapeError('polymarket-gamma', '/events did not return an array');
      out.push(...(res.body as unknown[]));
      if (res.body.length < PAGE) break;
    }
    return out;
  }

  /**
   * The CLOB's best price for a token. As the reference documents it, side=SELL is the best ask
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
