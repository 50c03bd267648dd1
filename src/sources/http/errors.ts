/** Errors an upstream call can end in; the worker records the message and keeps the last snapshot. */

/** The upstream answered with a status we do not accept (after any retries). */
export class UpstreamHttpError extends Error {
  override name = 'UpstreamHttpError';
  constructor(
    readonly upstream: string,
    readonly status: number,
    readonly url: string,
  ) {
    super(`${upstream}: HTTP ${status} from ${url}`);
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

/** The upstream asked us (Retry-After) to wait longer than a refresh can: no call until then. */
export class UpstreamBackoffError extends Error {
  override name = 'UpstreamBackoffError';
  constructor(
    readonly upstream: string,
    readonly until: Date,
  ) {
    super(`${upstream}: asked to retry after ${until.toISOString()}; not calling before then`);
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
