/// <reference lib="dom" />
/**
 * One WebSocket per page (per socket URL) for every widget on it: a page with many widgets behind
 * one office address stays far under the server's per-address connection cap. Widgets of the same
 * topic share its subscription. The socket opens with the first subscriber, closes with the last and
 * while the page is hidden, reconnects with jittered backoff, and resubscribes every topic.
 *
 * The server answers each subscribe, in order, with the topic's payload or an error frame that
 * names no topic: an error therefore belongs to the oldest subscribe still unanswered. Frames go out
 * at most SEND_PER_SECOND a second, under the server's per-connection message limit (20 by
 * default), however many widgets subscribe at once.
 */

/** What a subscriber hears of its topic. */
export interface TopicListener {
  data(payload: unknown): void;
  /** The socket closed: pushes pause until it is back (poll meanwhile). */
  down(): void;
  /** The server refused the topic: it will not be pushed. */
  refused(): void;
}

const MAX_BACKOFF_S = 60;
const SEND_PER_SECOND = 10;

/** Exponential backoff with jitter, in ms: base * 2^(failures-1), capped, between 50% and 100%. */
export const backoffMs = (baseS: number, failures: number, capS: number): number =>
  Math.min(capS, baseS * 2 ** Math.max(0, failures - 1)) * 1000 * (0.5 + Math.random() / 2);

class SharedSocket {
  readonly #topics = new Map<string, Set<TopicListener>>();
  /** Subscribes sent and not yet answered, oldest first. */
  #pending: string[] = [];
  #ws?: WebSocket;
  #timer?: ReturnType<typeof setTimeout>;
  #failures = 0;
  /** Frames waiting for the next second, and how many this second has sent. */
  #outbox: string[] = [];
  #sent = 0;
  #flushTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly url: string) {
    document.addEventListener('visibilitychange', () =>
      document.visibilityState === 'hidden' ? this.#close() : this.#open(),
    );
  }

  /** Adds a listener of `topic`; returns its removal. */
  subscribe(topic: string, listener: TopicListener): () => void {
    let set = this.#topics.get(topic);
    if (!set) {
      this.#topics.set(topic, (set = new Set()));
      this.#send('subscribe', topic);
    }
    set.add(listener);
    this.#open();
    return () => {
      set.delete(listener);
      if (set.size || this.#topics.get(topic) !== set) return;
      this.#topics.delete(topic);
      this.#send('unsubscribe', topic);
      if (!this.#topics.size) this.#close();
    };
  }

  #send(op: 'subscribe' | 'unsubscribe', topic: string): void {
    if (this.#ws?.readyState !== WebSocket.OPEN) return; // sent on open
    if (op === 'subscribe') this.#pending.push(topic);
    this.#outbox.push(JSON.stringify({ op, topic }));
    this.#flush();
  }

  /** Sends what this second's budget allows (the second starts at its first frame); the rest after it. */
  #flush(): void {
    const ws = this.#ws;
    while (ws?.readyState === WebSocket.OPEN && this.#outbox.length && this.#sent < SEND_PER_SECOND) {
      ws.send(this.#outbox.shift()!);
      this.#sent++;
    }
    if (this.#sent && this.#flushTimer === undefined) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = undefined;
        this.#sent = 0;
        this.#flush();
      }, 1000);
    }
  }

  #open(): void {
    if (this.#ws || !this.#topics.size || document.visibilityState === 'hidden') return;
    clearTimeout(this.#timer);
    const ws = (this.#ws = new WebSocket(this.url));
    ws.onopen = () => {
      this.#pending = [];
      this.#outbox = [];
      for (const topic of this.#topics.keys()) this.#send('subscribe', topic);
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: { topic?: string; data?: unknown; op?: string };
      try {
        msg = JSON.parse(String(e.data)) as typeof msg;
      } catch {
        return;
      }
      if (msg.op === 'error') {
        const topic = this.#pending.shift();
        const set = topic === undefined ? undefined : this.#topics.get(topic);
        this.#topics.delete(topic!);
        for (const l of set ?? []) l.refused();
        if (!this.#topics.size) this.#close();
      } else if (msg.topic && msg.data) {
        const i = this.#pending.indexOf(msg.topic);
        if (i >= 0) this.#pending.splice(i, 1);
        this.#failures = 0;
        for (const l of this.#topics.get(msg.topic) ?? []) l.data(msg.data);
      }
    };
    ws.onclose = () => {
      if (this.#ws !== ws) return; // closed on purpose
      this.#ws = undefined;
      this.#down();
      this.#timer = setTimeout(() => this.#open(), backoffMs(1, ++this.#failures, MAX_BACKOFF_S));
    };
  }

  #close(): void {
    clearTimeout(this.#timer);
    const ws = this.#ws;
    this.#ws = undefined;
    ws?.close();
    if (ws) this.#down();
  }

  #down(): void {
    for (const set of this.#topics.values()) for (const l of set) l.down();
  }
}

const sockets = new Map<string, SharedSocket>();

/** Subscribes `listener` to `topic` on the page's socket for `url`; returns the unsubscribe. */
export function subscribeTopic(url: string, topic: string, listener: TopicListener): () => void {
  if (typeof WebSocket === 'undefined') return () => {};
  let socket = sockets.get(url);
  if (!socket) sockets.set(url, (socket = new SharedSocket(url)));
  return socket.subscribe(topic, listener);
}
