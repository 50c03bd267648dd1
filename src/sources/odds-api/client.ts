/**
 * The Odds API v4 client. Every call costs quota (markets x regions for /odds); the quota headers
 * (x-requests-remaining / -used / -last) are tracked, and once nothing remains no call is made
 * until the block lapses (the quota is monthly; the provider sends no reset header, so we wait
 * `quotaBlockMs`, an hour by default, and then try one call to read the headers again).
 */
import type { Logger } from '../../runtime/log.js';
import { HttpClient, type Resilience } from '../http/client.js';
import { UpstreamShapeError } from '../http/errors.js';
import { QuotaTracker } from '../http/quota.js';
import type { Clock } from '../../model/clock.js';

export const ODDS_API_DEFAULT_BASE_URL = 'https://api.the-odds-api.com';

export interface OddsApiClientOptions {
  baseUrl?: string;
  apiKey?: string;
  regions?: string;
  timeoutMs?: number;
  /** Retry and circuit-breaker settings (defaults in src/sources/http/client.ts). */
  resilience?: Resilience;
  quotaBlockMs?: number;
  log?: Logger;
  /** The clock quota blocks are measured on (tests inject theirs). */
  now?: Clock;
}

/** The Odds API client; one per process so the quota view is shared by all leagues. */
export class OddsApiClient {
  private readonly http: HttpClient;
  readonly quota: QuotaTracker;
  private readonly apiKey: string | undefined;
  private readonly regions: string;

  constructor(opts: OddsApiClientOptions = {}) {
    this.quota = new QuotaTracker(
      { remaining: 'x-requests-remaining', used: 'x-requests-used', last: 'x-requests-last' },
      opts.quotaBlockMs ?? 3_600_000,
    );
    this.apiKey = opts.apiKey;
    this.regions = opts.regions ?? 'us';
    this.http = new HttpClient({
      name: 'odds-api',
      baseUrl: opts.baseUrl ?? ODDS_API_DEFAULT_BASE_URL,
      quota: this.quota,
      // Every call costs credits: a failed one is not retried at once (the source waits its interval).
      attempts: 1,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...opts.resilience,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    });
  }

  /** `GET /v4/sports/{sport}/odds` with h2h, spreads and totals in American odds, raw. */
  async odds(sportKey: string, signal?: AbortSignal): Promise<unknown[]> {
    const res = await this.http.getJson(
      `/v4/sports/${encodeURIComponent(sportKey)}/odds`,
      {
        apiKey: this.apiKey,
        regions: this.regions,
        markets: 'h2h,spreads,totals',
        oddsFormat: 'american',
        dateFormat: 'iso',
      },
      signal,
    );
    if (!Array.isArray(res.body))
      throw new UpstreamShapeError('odds-api', `/odds for ${sportKey} did not return an array`);
    return res.body as unknown[];
  }

  /** `GET /v4/sports/{sport}/scores?daysFrom=3`, raw. */
  async scores(sportKey: string, signal?: AbortSignal): Promise<unknown[]> {
    const res = await this.http.getJson(
      `/v4/sports/${encodeURIComponent(sportKey)}/scores`,
      { apiKey: this.apiKey, daysFrom: 3, dateFormat: 'iso' },
      signal,
    );
    if (!Array.isArray(res.body))
      throw new UpstreamShapeError('odds-api', `/scores for ${sportKey} did not return an array`);
    return res.body as unknown[];
  }
}
