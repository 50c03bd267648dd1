/** Errors an upstream call can end in; the worker records the message and keeps the last snapshot. */

/** The upstream answered with a status we do not accept (after any retries). */
export class UpstreamHttpError extends Error {
  override name = 'UpstreamHttpError';
  /** The wait the upstream asked for (Retry-After), ms, when it said. */
  retryAfterMs?: number;
  constructor(
    readonly upstream: string,
    readonly status: number,
    readonly url: string,
    /** The start of the error body, whitespace collapsed: what the upstream said went wrong. */
    readonly body = '',
  ) {
    super(`${upstream}: HTTP ${status} from ${url}${body ? `: ${body}` : ''}`);
  }
}

/** The connection failed (refused, reset, DNS): worth a retry, like a 5xx. */
export class UpstreamNetworkError extends Error {
  override name = 'UpstreamNetworkError';
  constructor(
    readonly upstream: string,
    message: string,
  ) {
    super(message);
  }
}

/** The upstream's circuit breaker is open after repeated failures: no call until its backoff lapses. */
export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError';
  constructor(readonly upstream: string) {
    super(`${upstream}: circuit open after repeated failures; calls resume with backoff`);
  }
}

/** The call did not finish within its timeout (after any retries). */
export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
  constructor(
    readonly upstream: string,
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`${upstream}: no answer within ${timeoutMs} ms from ${url}`);
  }
}

/** Our own quota is spent: no call is made until the upstream's reset time. */
export class QuotaExhaustedError extends Error {
  override name = 'QuotaExhaustedError';
  constructor(
    readonly upstream: string,
    readonly until: Date,
  ) {
    super(`${upstream}: request quota exhausted; not calling again before ${until.toISOString()}`);
  }
}

/** The upstream asked us (Retry-After), or our own pacing says, to wait: no call until then. */
export class UpstreamBackoffError extends Error {
  override name = 'UpstreamBackoffError';
  constructor(
    readonly upstream: string,
    readonly until: Date,
    why = 'asked to retry after',
  ) {
    super(`${upstream}: ${why} ${until.toISOString()}; not calling before then`);
  }
}

/** The body was not what the provider documents (bad JSON, wrong envelope). */
export class UpstreamShapeError extends Error {
  override name = 'UpstreamShapeError';
  constructor(
    readonly upstream: string,
    message: string,
  ) {
    super(`${upstream}: ${message}`);
  }
}
