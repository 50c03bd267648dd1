/**
 * The one upstream HTTP client every adapter uses: Node's global fetch with a per-attempt timeout
 * (AbortSignal), and cockatiel policies around each attempt:
 * - retry with jittered exponential backoff on network errors, timeouts, 429 and 5xx, honouring
 *   Retry-After (a Retry-After too long for one refresh fails the call and blocks calls until then);
 * - a circuit breaker per upstream that lives as long as the client (so it spans refresh jobs):
 *   after `breakerThreshold` consecutive failed attempts it opens, and lets one probe through after
 *   an exponentially growing pause (`breakerBaseMs` doubling up to `breakerMaxMs`), closing again on
 *   the first success. A storm of 503s therefore costs a handful of requests, not one per refresh.
 * An optional quota tracker stops calls when the provider says nothing remains. Error bodies are
 * kept, trimmed, in the error (they reach /readyz through the snapshot meta).
 */
import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  noJitterGenerator,
  retry,
  wrap,
  type IBackoff,
  type IRetryBackoffContext,
} from 'cockatiel';
import type { Logger } from '../../runtime/log.js';
import { circuitOpen, upstreamRequestSeconds } from '../../metrics/sources.js';
import { backoffDelay, retryAfterMs } from './backoff.js';
import {
  CircuitOpenError,
  QuotaExhaustedError,
  UpstreamBackoffError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamShapeError,
  UpstreamTimeoutError,
} from './errors.js';
import type { QuotaTracker } from './quota.js';
import { systemClock, type Clock } from '../../model/clock.js';

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
  /** Consecutive failed attempts that open the circuit. */
  breakerThreshold?: number;
  /** First pause of an open circuit before a probe, ms; doubles per failed probe up to breakerMaxMs. */
  breakerBaseMs?: number;
  breakerMaxMs?: number;
  headers?: Record<string, string>;
  quota?: QuotaTracker;
  log?: Logger;
  /** Clock and randomness, injectable for tests. */
  now?: Clock;
  random?: () => number;
}

/** Retry and circuit-breaker settings a source client may pass through (tests shorten them). */
export type Resilience = Partial<
  Pick<
    HttpClientOptions,
    'attempts' | 'backoffBaseMs' | 'backoffMaxMs' | 'breakerThreshold' | 'breakerBaseMs' | 'breakerMaxMs'
  >
>;

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);
const BODY_CHARS = 200;

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

/** Failures another attempt may fix (they count against the circuit too); not a Retry-After beyond `maxWaitMs`. */
function transient(maxWaitMs: number): (err: Error) => boolean {
  return (err) => {
    if (err instanceof UpstreamHttpError) return RETRYABLE.has(err.status) && !((err.retryAfterMs ?? 0) > maxWaitMs);
    return err instanceof UpstreamTimeoutError || err instanceof UpstreamNetworkError;
  };
}

/** Retry pauses: what Retry-After asked for, else full-jitter exponential backoff. */
class RetryBackoff implements IBackoff<IRetryBackoffContext<unknown>> {
  constructor(
    private readonly o: { baseMs: number; maxMs: number; random: () => number },
    readonly duration = 0,
  ) {}
  next(ctx: IRetryBackoffContext<unknown>): IBackoff<IRetryBackoffContext<unknown>> {
    const err = 'error' in ctx.result ? ctx.result.error : undefined;
    const asked = err instanceof UpstreamHttpError ? err.retryAfterMs : undefined;
    return new RetryBackoff(
      this.o,
      asked ?? backoffDelay(ctx.attempt - 1, { baseMs: this.o.baseMs, maxMs: this.o.maxMs }, this.o.random),
    );
  }
}

/** The outcome label of a failed attempt. */
function requestOutcome(err: unknown): string {
  if (err instanceof QuotaExhaustedError) return 'quota';
  if (err instanceof UpstreamBackoffError) return 'backoff';
  if (err instanceof UpstreamHttpError)
    return err.status === 429 ? 'http_429' : err.status >= 500 ? 'http_5xx' : 'http_4xx';
  if (err instanceof UpstreamTimeoutError) return 'timeout';
  if (err instanceof UpstreamNetworkError) return 'network';
  return 'other';
}

/** An HTTP client bound to one upstream. */
export class HttpClient {
  readonly name: string;
  /** Set by a Retry-After too long to wait out in one refresh; later calls fail fast until then. */
  private notBefore = 0;
  private readonly o: Required<Omit<HttpClientOptions, 'quota' | 'log' | 'headers'>> &
    Pick<HttpClientOptions, 'quota' | 'log' | 'headers'>;
  private readonly policy;

  constructor(opts: HttpClientOptions) {
    this.name = opts.name;
    this.o = {
      timeoutMs: 10_000,
      attempts: 3,
      backoffBaseMs: 250,
      backoffMaxMs: 4_000,
      maxRetryAfterMs: 10_000,
      breakerThreshold: 3,
      breakerBaseMs: 5_000,
      breakerMaxMs: 300_000,
      now: systemClock,
      random: Math.random,
      ...opts,
    };
    // No jitter on the probe pause: probes are already spread by each worker's own schedule, and a
    // fixed schedule is one an operator (and a test) can reason about.
    const isTransient = transient(this.o.maxRetryAfterMs);
    const breaker = circuitBreaker(handleWhen(isTransient), {
      halfOpenAfter: new ExponentialBackoff({
        initialDelay: this.o.breakerBaseMs,
        maxDelay: this.o.breakerMaxMs,
        generator: noJitterGenerator,
      }),
      breaker: new ConsecutiveBreaker(this.o.breakerThreshold),
    });
    // A failed probe opens the circuit again: warn once per outage, not once per probe.
    let open = false;
    breaker.onBreak(() => {
      circuitOpen.set({ upstream: this.name }, 1);
      if (!open) this.o.log?.warn({ upstream: this.name }, 'upstream circuit opened; calls resume with backoff');
      open = true;
    });
    breaker.onReset(() => {
      open = false;
      circuitOpen.set({ upstream: this.name }, 0);
      this.o.log?.info({ upstream: this.name }, 'upstream circuit closed');
    });
    const retries = retry(handleWhen(isTransient), {
      maxAttempts: Math.max(0, this.o.attempts - 1),
      backoff: new RetryBackoff({ baseMs: this.o.backoffBaseMs, maxMs: this.o.backoffMaxMs, random: this.o.random }),
    });
    retries.onRetry((e) =>
      this.o.log?.debug(
        { upstream: this.name, attempt: e.attempt, delayMs: e.delay, err: 'error' in e ? e.error.message : undefined },
        'upstream retry',
      ),
    );
    this.policy = wrap(retries, breaker);
  }

  /** GET a JSON body. @throws UpstreamHttpError, UpstreamTimeoutError, QuotaExhaustedError, UpstreamShapeError, CircuitOpenError */
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

  private async get(
    path: string,
    query: Query | undefined,
    signal: AbortSignal | undefined,
    accept: string,
  ): Promise<HttpResponse<string>> {
    const url = buildUrl(this.o.baseUrl, path, query);
    const safe = redactUrl(url);
    try {
      return await this.policy.execute(() => this.attempt(url, safe, accept, signal), signal);
    } catch (err) {
      if (err instanceof BrokenCircuitError) throw new CircuitOpenError(this.name);
      throw err;
    }
  }

  /** One try, timed and counted per upstream and outcome. */
  private async attempt(
    url: string,
    safe: string,
    accept: string,
    signal: AbortSignal | undefined,
  ): Promise<HttpResponse<string>> {
    const end = upstreamRequestSeconds.startTimer({ upstream: this.name });
    try {
      const res = await this.tryOnce(url, safe, accept, signal);
      end({ outcome: 'ok' });
      return res;
    } catch (err) {
      end({ outcome: requestOutcome(err) });
      throw err;
    }
  }

  /** One try: the response, or an error (transient ones carry the wait the upstream asked for). */
  private async tryOnce(
    url: string,
    safe: string,
    accept: string,
    signal: AbortSignal | undefined,
  ): Promise<HttpResponse<string>> {
    const blocked = this.o.quota?.blockedUntil(new Date(this.o.now()));
    if (blocked) throw new QuotaExhaustedError(this.name, blocked);
    const notBefore = Math.max(this.notBefore, this.o.quota?.deferredUntil(new Date(this.o.now()))?.getTime() ?? 0);
    if (this.o.now() < notBefore) throw new UpstreamBackoffError(this.name, new Date(notBefore));
    signal?.throwIfAborted();
    let res: Response;
    try {
      const timeout = AbortSignal.timeout(this.o.timeoutMs);
      res = await fetch(url, {
        headers: { accept, ...this.o.headers },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (res.ok) {
        this.o.quota?.observe(res.headers, new Date(this.o.now()));
        return { status: res.status, headers: res.headers, body: await res.text() };
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason as Error;
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
        throw new UpstreamTimeoutError(this.name, safe, this.o.timeoutMs);
      // Node's fetch says only "fetch failed"; the cause carries the useful part (ECONNREFUSED, ...).
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new UpstreamNetworkError(
        this.name,
        `${this.name}: ${err instanceof Error ? err.message : String(err)}${cause ? ` (${cause})` : ''} from ${safe}`,
      );
    }
    this.o.quota?.observe(res.headers, new Date(this.o.now()));
    // Read (and so drain) the body: its start says what went wrong, and the connection is reused.
    const text = await res.text().catch(() => '');
    const error = new UpstreamHttpError(
      this.name,
      res.status,
      safe,
      redactUrl(text.replace(/\s+/g, ' ').trim().slice(0, BODY_CHARS)),
    );
    this.o.quota?.observeRefusal(res.status, error.body, new Date(this.o.now()));
    if (res.status === 429 || res.status === 503) {
      const asked = retryAfterMs(res.headers.get('retry-after'), new Date(this.o.now()));
      // A long Retry-After is not waited out inside one refresh, and no call is made before it ends.
      // With a quota, the deferral is part of what is saved, so a restart honours it too.
      if (asked !== undefined && asked > this.o.maxRetryAfterMs) {
        this.notBefore = this.o.now() + asked;
        this.o.quota?.defer(new Date(this.notBefore));
      }
      if (asked !== undefined) error.retryAfterMs = asked;
    }
    throw error;
  }
}
