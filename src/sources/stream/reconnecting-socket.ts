/**
 * One reconnecting WebSocket for every upstream stream (Coinbase ticker, Polymarket CLOB): it
 * connects, sends the caller's subscribe message on open, keeps the connection alive with an
 * optional text ping, terminates it when nothing (not even a pong) arrives for `silenceMs`, and
 * reconnects on the one policy of reconnect.ts (jittered exponential backoff that starts over only
 * after a healthy period): a socket that opens, says one thing and drops keeps backing off.
 * A client supplies only the URL, its subscribe message, its keep-alive and its parsing.
 */
import WebSocket from 'ws';
import type { Logger } from '../../runtime/log.js';
import { ReconnectBackoff } from './reconnect.js';
import { type Clock, systemClock } from '../../model/clock.js';

export interface ReconnectingSocketOptions {
  /** For log lines: "coinbase", "polymarket clob". */
  name: string;
  url: string;
  log: Logger;
  /** Our clock, for the healthy period and `lastHeardAt`. */
  now?: Clock;
  /** Terminate the connection when nothing arrives for this long (a silent socket). */
  silenceMs: number;
  /** Send `pingText` this often (a venue that drops quiet connections, or to have a pong to hear). */
  pingMs?: number;
  pingText?: string;
  /** Sent once each connection opens. */
  subscribe: string;
  onMessage(text: string): void;
  /** The connection is gone (closed, errored, or terminated as silent); a reconnect follows unless stopped. */
  onClose?(): void;
}

export class ReconnectingSocket {
  #socket: WebSocket | undefined;
  #stopped = true;
  #failing = false;
  #lastHeardAt: number | undefined;
  readonly #backoff = new ReconnectBackoff();
  readonly #now: Clock;
  readonly #timers: { retry?: NodeJS.Timeout; watchdog?: NodeJS.Timeout; ping?: NodeJS.Timeout } = {};

  constructor(private readonly o: ReconnectingSocketOptions) {
    this.#now = o.now ?? systemClock;
  }

  /** When the last frame of the current connection arrived (our clock); undefined while not connected. */
  get lastHeardAt(): number | undefined {
    return this.#lastHeardAt;
  }

  start(): void {
    this.#stopped = false;
    this.#connect();
  }

  /** Drops the current connection (if any) and connects at once, without backing off: a new subscription. */
  restart(): void {
    this.#teardown();
    if (!this.#stopped) this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    this.#teardown();
  }

  #teardown(): void {
    clearTimeout(this.#timers.retry);
    this.#clearLive();
    const ws = this.#socket;
    this.#socket = undefined;
    this.#lastHeardAt = undefined;
    ws?.terminate();
  }

  #clearLive(): void {
    clearTimeout(this.#timers.watchdog);
    clearInterval(this.#timers.ping);
  }

  #connect(): void {
    const ws = new WebSocket(this.o.url);
    this.#socket = ws;
    const arm = () => {
      clearTimeout(this.#timers.watchdog);
      this.#timers.watchdog = setTimeout(() => ws.terminate(), this.o.silenceMs);
    };
    ws.on('open', () => {
      if (ws !== this.#socket) return;
      this.#backoff.opened(this.#now());
      ws.send(this.o.subscribe);
      arm();
      if (this.o.pingMs && this.o.pingText) {
        const text = this.o.pingText;
        this.#timers.ping = setInterval(() => ws.readyState === ws.OPEN && ws.send(text), this.o.pingMs);
      }
    });
    ws.on('message', (data) => {
      if (ws !== this.#socket) return;
      this.#lastHeardAt = this.#now();
      arm();
      this.o.onMessage(data.toString());
    });
    ws.on('error', (err) => {
      // One warning per run of failures, not one per reconnect.
      if (!this.#failing) this.o.log.warn({ err: err.message }, `${this.o.name} feed error`);
      this.#failing = true;
    });
    ws.on('close', () => {
      if (ws !== this.#socket) return; // replaced (restart) or stopped
      this.#clearLive();
      this.#lastHeardAt = undefined;
      this.o.onClose?.();
      if (this.#stopped) return;
      const delay = this.#backoff.closed(this.#now());
      if (this.#backoff.wasHealthy) this.#failing = false;
      this.#timers.retry = setTimeout(() => this.#connect(), delay);
    });
  }
}
