/// <reference lib="dom" />
/**
 * Keeps one widget's payload current: polls with If-None-Match at the payload's
 * refresh_interval_seconds (or a default), listens on the WebSocket where the server pushes, pauses
 * both while the tab is hidden, and backs off after errors. While the socket delivers, polling rests;
 * when it drops, polling carries on and the socket reconnects with backoff.
 */
import type { WidgetRequest } from './request.js';

export interface FeedEvents {
  data(payload: unknown): void;
  /** A failed request: `retrying` false when the answer will not change by asking again (4xx). */
  error(message: string, retrying: boolean): void;
}

const MAX_BACKOFF_S = 300;
const MAX_WS_BACKOFF_S = 60;

/** Exponential backoff with jitter, in ms: base * 2^(failures-1), capped, between 50% and 100%. */
export const backoffMs = (baseS: number, failures: number, capS: number): number =>
  Math.min(capS, baseS * 2 ** Math.max(0, failures - 1)) * 1000 * (0.5 + Math.random() / 2);

export class Feed {
  #etag: string | null = null;
  #interval: number;
  #failures = 0;
  #timer?: ReturnType<typeof setTimeout>;
  #ws?: WebSocket;
  #wsTimer?: ReturnType<typeof setTimeout>;
  #wsFailures = 0;
  /** True while the socket is open and subscribed: polling rests. */
  #pushing = false;
  /** The server refused the topic: stay on polling. */
  #wsRefused = false;
  #stopped = false;
  #inflight = false;
  /** The server's Retry-After (429, 503), a floor under the next delay. */
  #retryAfterMs = 0;
  #lastFetchAt = 0;
  /** The widget's first fetch is done: later ones are refreshes (`req.refreshUrl`). */
  #fetched = false;
  #refetch?: ReturnType<typeof setTimeout>;

  constructor(private readonly req: WidgetRequest, private readonly on: FeedEvents) {
    this.#interval = req.defaultRefresh;
  }

  start(): void {
    document.addEventListener('visibilitychange', this.#visibility);
    void this.poll();
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    document.removeEventListener('visibilitychange', this.#visibility);
    this.#pause();
  }

  #hidden = () => document.visibilityState === 'hidden';

  #pause(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#wsTimer);
    clearTimeout(this.#refetch);
    this.#refetch = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    this.#pushing = false;
    ws?.close();
  }

  readonly #visibility = () => {
    if (this.#hidden()) this.#pause();
    else {
      void this.poll();
      this.#connect();
    }
  };

  /** Fetches now (unless the socket is delivering usable payloads), then schedules the next poll. */
  async poll(force = false): Promise<void> {
    clearTimeout(this.#timer);
    if (this.#stopped || this.#hidden()) return;
    if ((!this.#pushing || !this.req.ws?.payloadUsable || force) && !this.#inflight) {
      this.#inflight = true;
      this.#lastFetchAt = Date.now();
      try {
        const url = this.#fetched ? this.req.refreshUrl : this.req.url;
        this.#fetched = true;
        const res = await fetch(url, {
          headers: { ...this.req.headers, ...(this.#etag ? { 'if-none-match': this.#etag } : {}) },
          cache: 'no-store',
        });
        if (res.status !== 304) {
          const body = (await res.json().catch(() => ({}))) as { detail?: string; refresh_interval_seconds?: number };
          if (!res.ok) {
            const retry = Number(res.headers.get('retry-after'));
            throw Object.assign(new Error(body.detail ?? `HTTP ${res.status}`), { permanent: res.status < 500 && res.status !== 429, retry });
          }
          this.#etag = res.headers.get('etag');
          if (body.refresh_interval_seconds) this.#interval = body.refresh_interval_seconds;
          this.on.data(body);
        }
        this.#failures = 0;
      } catch (err) {
        this.#failures++;
        const e = err as Error & { permanent?: boolean; retry?: number };
        this.on.error(e.message || 'network error', !e.permanent);
        this.#retryAfterMs = (e.retry ?? 0) * 1000;
      } finally {
        this.#inflight = false;
      }
    }
    if (this.#stopped || this.#hidden()) return;
    const delay = this.#failures ? Math.max(this.#retryAfterMs, backoffMs(this.#interval, this.#failures + 1, MAX_BACKOFF_S)) : this.#interval * 1000;
    this.#timer = setTimeout(() => void this.poll(), delay);
  }

  /** A push we cannot render ourselves: fetch our own payload, at most once a second however fast pushes come. */
  #refetchSoon(): void {
    if (this.#refetch !== undefined) return;
    this.#refetch = setTimeout(() => {
      this.#refetch = undefined;
      void this.poll(true);
    }, Math.max(0, this.#lastFetchAt + 1000 - Date.now()));
  }

  #connect(): void {
    const spec = this.req.ws;
    if (!spec || this.#ws || this.#wsRefused || this.#stopped || this.#hidden() || typeof WebSocket === 'undefined') return;
    const ws = new WebSocket(spec.url);
    this.#ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', topic: spec.topic }));
    ws.onmessage = (e: MessageEvent) => {
      let msg: { topic?: string; data?: unknown; op?: string };
      try {
        msg = JSON.parse(String(e.data)) as typeof msg;
      } catch {
        return;
      }
      if (msg.op === 'error') {
        this.#wsRefused = true;
        ws.close();
      } else if (msg.topic === spec.topic && msg.data) {
        this.#pushing = true;
        this.#wsFailures = 0;
        if (spec.payloadUsable) this.on.data(msg.data);
        else this.#refetchSoon();
      }
    };
    ws.onclose = () => {
      if (this.#ws !== ws) return; // paused or replaced on purpose
      this.#ws = undefined;
      const wasPushing = this.#pushing;
      this.#pushing = false;
      if (this.#stopped || this.#wsRefused) return;
      if (wasPushing) void this.poll(); // back to polling at once, so the widget does not go quiet
      this.#wsFailures++;
      this.#wsTimer = setTimeout(() => this.#connect(), backoffMs(1, this.#wsFailures, MAX_WS_BACKOFF_S));
    };
  }
}
