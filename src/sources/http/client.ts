/**
 * The one upstream HTTP client every adapter uses: Node's global fetch with a per-attempt timeout
 * (AbortSignal), retries with jittered exponential backoff on network errors, timeouts, 429 and
 * 5xx, Retry-After honoured on 429/503, and an optional quota tracker that stops calls when the
 * provider says nothing remains.
 */
import type { Logger } from '../../log.js';
import { backoffDelay, retryAfterMs, sleep } from './backoff.js';
import { QuotaExhaustedError, UpstreamBackoffError, UpstreamHttpError, UpstreamShapeError, UpstreamTimeoutError } from './errors.js';
import type { QuotaTracker } from './quota.js';

export interface HttpClientOptions {
  /** Names the upstream in errors and logs. */
  name: string;
  baseUrl: string;
  /** Per-attempt timeout, ms. */
  timeoutMs?: number;
  /** Attempts in total (1 = no retry). */
  attempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A Retry-After longer than this is not waited out inside a refresh: the call fails instead. */
  maxRetryAfterMs?: number;
  headers?: Record<string, string>;
  quota?: QuotaTracker;
  log?: Logger;
  /** Clock and randomness, injectable for tests. */
  now?: () => Date;
  random?: () => number;
}

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Builds `base + path` with query parameters; arrays repeat the key (Gamma's `slug=a&slug=b`). */
export function buildUrl(baseUrl: string, path: string, query: Query = {}): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v as readonly string[]) url.searchParams.append(k, item);
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** The URL with credentials in its query (apiKey, api_key, key, token) masked, for errors and logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:apiKey|api_key|apikey|key|token)=)[^&]*/gi, '$1***');
}

/** An HTTP client bound to one upstream. */
export class HttpClient {
  readonly name: string;
  /** Set by a Retry-After too long to wait out in one refresh; later calls fail fast until then. */
  private notBefore = 0;
  private readonly o: Required<Omit<HttpClientOptions, 'quota' | 'log' | 'headers'>> & Pick<HttpClientOptions, 'quota' | 'log' | 'headers'>;

  constructor(opts: HttpClientOptions) {
    this.name = opts.name;
    this.o = {
      timeoutMs: 10_000,
      attempts: 3,
      backoffBaseMs: 250,
      backoffMaxMs: 4_000,
      maxRetryAfterMs: 10_000,
      now: () => new Date(),
      random: Math.random,
      ...opts,
    };
  }

  /** GET a JSON body. @throws UpstreamHttpError, UpstreamTimeoutError, QuotaExhaustedError, UpstreamShapeError */
  async getJson(path: string, query?: Query, signal?: AbortSignal): Promise<HttpResponse<unknown>> {
    const res = await this.get(path, query, signal, 'application/json');
    try {
      return { ...res, body: JSON.parse(res.body) as unknown };
    } catch {
      throw new UpstreamShapeError(this.name, `response from ${path} is not JSON`);
    }
  }

  /** GET a text body (the ECB's XML). Same errors as {@link getJson}. */
  async getText(path: string, query?: Query, signal?: AbortSignal): Promise<HttpResponse<string>> {
    return this.get(path, query, signal, 'application/xml, text/xml, text/plain, */*');
  }

  private async get(path: string, query: Query | undefined, signal: AbortSignal | undefined, accept: string): Promise<HttpResponse<string>> {
    const url = buildUrl(this.o.baseUrl, path, query);
    const safe = redactUrl(url);
    let lastError: Error = new Error('no attempt made');
    for (let attempt = 0; attempt < this.o.attempts; attempt++) {
      const outcome = await this.attempt(url, safe, accept, signal);
      if ('response' in outcome) return outcome.response;
      lastError = outcome.error;
      if (attempt + 1 >= this.o.attempts) break;
      const delay = outcome.waitMs ?? backoffDelay(attempt, { baseMs: this.o.backoffBaseMs, maxMs: this.o.backoffMaxMs }, this.o.random);
      this.o.log?.debug({ upstream: this.name, url: safe, attempt: attempt + 1, delayMs: delay, err: lastError.message }, 'upstream retry');
      await sleep(delay, signal);
    }
    throw lastError;
  }

  /**
   * One try. Returns the response, or a retryable error (with the wait the upstream asked for);
   * throws what retrying cannot fix (4xx other than 408/425/429, quota spent, caller aborted).
   */
  private async attempt(
    url: string,
    safe: string,
    accept: string,
    signal: AbortSignal | undefined,
  ): Promise<{ response: HttpResponse<string> } | { error: Error; waitMs?: number }> {
    const blocked = this.o.quota?.blockedUntil(this.o.now());
    if (blocked) throw new QuotaExhaustedError(this.name, blocked);
    if (this.o.now().getTime() < this.notBefore) throw new UpstreamBackoffError(this.name, new Date(this.notBefore));
    signal?.throwIfAborted();
    let res: Response;
    try {
      const timeout = AbortSignal.timeout(this.o.timeoutMs);
      res = await fetch(url, { headers: { accept, ...this.o.headers }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      if (res.ok) {
        this.o.quota?.observe(res.headers, this.o.now());
        return { response: { status: res.status, headers: res.headers, body: await res.text() } };
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason as Error;
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
        return { error: new UpstreamTimeoutError(this.name, safe, this.o.timeoutMs) };
      }
      // Node's fetch says only "fetch failed"; the cause carries the useful part (ECONNREFUSED, ...).
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return { error: new Error(`${this.name}: ${err instanceof Error ? err.message : String(err)}${cause ? ` (${cause})` : ''} from ${safe}`) };
    }
    this.o.quota?.observe(res.headers, this.o.now());
    // Drain the body so the connection can be reused.
    await res.arrayBuffer().catch(() => undefined);
    const error = new UpstreamHttpError(this.name, res.status, safe);
    if (!RETRYABLE.has(res.status)) throw error;
    if (res.status === 429 || res.status === 503) {
      const asked = retryAfterMs(res.headers.get('retry-after'), this.o.now());
      // A long Retry-After is not waited out inside one refresh, and no call is made before it ends.
      if (asked !== undefined && asked > this.o.maxRetryAfterMs) {
        this.notBefore = this.o.now().getTime() + asked;
        throw error;
      }
      if (asked !== undefined) return { error, waitMs: asked };
    }
    return { error };
  }
}
