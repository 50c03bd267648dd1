/// <reference lib="dom" />
/**
 * Keeps one widget's payload current: polls with If-None-Match at the payload's
 * refresh_interval_seconds (or a default), listens on the page's shared WebSocket where the server
 * pushes (socket.ts), pauses polling while the tab is hidden, and backs off after errors. While the
 * socket delivers, polling rests; when it drops, polling carries on until it is back.
 */
import type { WidgetRequest } from './request.js';
import { backoffMs, subscribeTopic } from './socket.js';

export interface FeedEvents {
  data(payload: unknown): void;
  /**
   * A failed request: `retrying` false when the answer will not change by asking again (4xx);
   * `status` is the HTTP status (0: no answer), `detail` the problem's detail for developers.
   */
  error(status: number, detail: string, retrying: boolean): void;
}

const MAX_BACKOFF_S = 300;

export class Feed {
  #etag: string | null = null;
  #interval: number;
  #failures = 0;
  #timer?: ReturnType<typeof setTimeout>;
  #unsubscribe?: () => void;
  /** True while the socket delivers the topic: polling rests. */
  #pushing = false;
  #stopped = false;
  #inflight = false;
  /** The server's Retry-After (429, 503), a floor under the next delay. */
  #retryAfterMs = 0;
  #lastFetchAt = 0;
  #refetch?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly req: WidgetRequest,
    private readonly on: FeedEvents,
  ) {
    this.#interval = req.defaultRefresh;
  }

  start(): void {
    document.addEventListener('visibilitychange', this.#visibility);
    void this.poll();
    const spec = this.req.ws;
    if (spec) {
      this.#unsubscribe = subscribeTopic(spec.url, spec.topic, {
        data: (payload) => {
          this.#pushing = true;
          if (spec.payloadUsable) this.on.data(payload);
          else this.#refetchSoon();
        },
        down: () => {
          // Back to polling at once, so the widget does not go quiet.
          if (this.#pushing && !this.#hidden()) void this.poll();
          this.#pushing = false;
        },
        refused: () => (this.#pushing = false),
      });
    }
  }

  stop(): void {
    this.#stopped = true;
    document.removeEventListener('visibilitychange', this.#visibility);
    this.#unsubscribe?.();
    clearTimeout(this.#timer);
    clearTimeout(this.#refetch);
  }

  #hidden = () => document.visibilityState === 'hidden';

  readonly #visibility = () => {
    if (this.#hidden()) {
      clearTimeout(this.#timer);
      clearTimeout(this.#refetch);
      this.#refetch = undefined;
    } else void this.poll();
  };

  /** Fetches now (unless the socket is delivering usable payloads), then schedules the next poll. */
  async poll(force = false): Promise<void> {
    clearTimeout(this.#timer);
    if (this.#stopped || this.#hidden()) return;
    if ((!this.#pushing || !this.req.ws?.payloadUsable || force) && !this.#inflight) {
      this.#inflight = true;
      this.#lastFetchAt = performance.now(); // a duration's start: the monotonic clock
      try {
        const res = await fetch(this.req.url, {
          headers: { ...this.req.headers, ...(this.#etag ? { 'if-none-match': this.#etag } : {}) },
          cache: 'no-store',
        });
        if (res.status !== 304) {
          const body = (await res.json().catch(() => ({}))) as { detail?: string; refresh_interval_seconds?: number };
          if (!res.ok) {
            const retry = Number(res.headers.get('retry-after'));
            throw Object.assign(new Error(body.detail ?? `HTTP ${res.status}`), {
              status: res.status,
              permanent: res.status < 500 && res.status !== 429,
              retry,
            });
          }
          this.#etag = res.headers.get('etag');
          if (body.refresh_interval_seconds) this.#interval = body.refresh_interval_seconds;
          this.on.data(body);
        }
        this.#failures = 0;
      } catch (err) {
        this.#failures++;
        const e = err as Error & { status?: number; permanent?: boolean; retry?: number };
        this.on.error(e.status ?? 0, e.message || 'network error', !e.permanent);
        this.#retryAfterMs = (e.retry ?? 0) * 1000;
      } finally {
        this.#inflight = false;
      }
    }
    if (this.#stopped || this.#hidden()) return;
    const delay = this.#failures
      ? Math.max(this.#retryAfterMs, backoffMs(this.#interval, this.#failures + 1, MAX_BACKOFF_S))
      : this.#interval * 1000;
    this.#timer = setTimeout(() => void this.poll(), delay);
  }

  /** A push we cannot render ourselves: fetch our own payload, at most once a second however fast pushes come. */
  #refetchSoon(): void {
    if (this.#refetch !== undefined) return;
    this.#refetch = setTimeout(
      () => {
        this.#refetch = undefined;
        void this.poll(true);
      },
      Math.max(0, this.#lastFetchAt + 1000 - performance.now()),
    );
  }
}
