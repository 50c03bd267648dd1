/**
 * Reconnect pacing for a streaming feed: exponential backoff with jitter (cockatiel) that resets
 * only after a connection has stayed up for `healthyMs`. A socket that opens, says one thing and
 * drops (or errors then closes) keeps backing off instead of reconnecting in a tight loop.
 * The clock is passed in, so the policy is tested without timers.
 */
import { ExponentialBackoff, type IBackoff } from 'cockatiel';

export interface ReconnectOptions {
  baseMs: number;
  maxMs: number;
  /** A connection up this long counts as healthy: the next drop starts from `baseMs` again. */
  healthyMs: number;
}

/**
 * The one reconnect policy of every upstream stream: the first retry within 0.5 s, growing to at
 * most 30 s, started over once a connection has lived 30 s.
 */
export const RECONNECT_POLICY: Readonly<ReconnectOptions> = { baseMs: 500, maxMs: 30_000, healthyMs: 30_000 };

export class ReconnectBackoff {
  private readonly factory: ExponentialBackoff<unknown>;
  private backoff: IBackoff<unknown> | undefined;
  private openedAt: number | undefined;
  /** Whether the last closed connection had been healthy (the backoff started over). */
  wasHealthy = false;

  constructor(private readonly o: ReconnectOptions = RECONNECT_POLICY) {
    this.factory = new ExponentialBackoff({ initialDelay: o.baseMs, maxDelay: o.maxMs });
  }

  /** The connection is open (subscribed) at `nowMs`. */
  opened(nowMs: number): void {
    this.openedAt = nowMs;
  }

  /** The connection closed at `nowMs` (or never opened): how long to wait before the next one. */
  closed(nowMs: number): number {
    const healthy = this.openedAt !== undefined && nowMs - this.openedAt >= this.o.healthyMs;
    this.openedAt = undefined;
    this.wasHealthy = healthy;
    if (healthy) this.backoff = undefined;
    this.backoff = this.backoff ? this.backoff.next(undefined) : this.factory.next();
    return this.backoff.duration;
  }
}
