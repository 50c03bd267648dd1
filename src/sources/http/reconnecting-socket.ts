/**
 * One reconnecting WebSocket for every upstream stream (Coinbase ticker, Polymarket CLOB): it
 * connects, lets the caller subscribe on open, keeps the connection alive with an optional text
 * ping, terminates it when nothing (not even a pong) arrives for `silenceMs`, and reconnects with
 * jittered exponential backoff whose attempt counter resets only after a connection stayed up for
 * `healthyMs` (reconnect.ts): a socket that opens, says one thing and drops keeps backing off.
 */
import WebSocket from 'ws';
import type { Logger } from '../../log.js';
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
  baseMs?: number;
  maxBackoffMs: number;
  /** A connection up this long counts as healthy: the next drop starts the backoff over. */
  healthyMs: number;
  /** The connection is open: subscribe. */
  onOpen(send: (text: string) => void): void;
  onMessage(text: string): void;
  /** The connection is gone (closed, errored, or terminated as silent); a reconnect follows unless stopped. */
  onClose?(): void;
}

export class ReconnectingSocket {
  #socket: WebSocket | undefined;
  #stopped = true;
  #failing = false;
  #lastHeardAt: number | undefined;
  readonly #backoff: ReconnectBackoff;
  readonly #now: Clock;
  readonly #timers: { retry?: NodeJS.Timeout; watchdog?: NodeJS.Timeout; ping?: NodeJS.Timeout } = {};

  constructor(private readonly o: ReconnectingSocketOptions) {
    this.#backoff = new ReconnectBackoff({ baseMs: o.baseMs ?? 500, maxMs: o.maxBackoffMs, healthyMs: o.healthyMs });
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
      this.o.onOpen((text) => ws.send(text));
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
