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
import { type CancelTimer, type Clock, systemClock, systemTimers, type Timers } from '../../model/clock.js';

export interface ReconnectingSocketOptions {
  /** For log lines: "coinbase", "polymarket clob". */
  name: string;
  url: string;
  log: Logger;
  /** Our clock, for the healthy period and `lastHeardAt`. */
  now?: Clock;
  /** The silence watchdog's, the ping's and the reconnect's timers (a test's move with its clock). */
  timers?: Timers;
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
  readonly #schedule: Timers;
  readonly #cancel: { retry?: CancelTimer; watchdog?: CancelTimer; ping?: CancelTimer } = {};

  constructor(private readonly o: ReconnectingSocketOptions) {
    this.#now = o.now ?? systemClock;
    this.#schedule = o.timers ?? systemTimers;
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
    this.#cancel.retry?.();
    this.#clearLive();
    const ws = this.#socket;
    this.#socket = undefined;
    this.#lastHeardAt = undefined;
    ws?.terminate();
  }

  #clearLive(): void {
    this.#cancel.watchdog?.();
    this.#cancel.ping?.();
  }

  #connect(): void {
    const ws = new WebSocket(this.o.url);
    this.#socket = ws;
    const arm = () => {
      this.#cancel.watchdog?.();
      this.#cancel.watchdog = this.#schedule.after(this.o.silenceMs, () => ws.terminate());
    };
    ws.on('open', () => {
      if (ws !== this.#socket) return;
      this.#backoff.opened(this.#now());
      ws.send(this.o.subscribe);
      arm();
      if (this.o.pingMs && this.o.pingText) {
        const text = this.o.pingText;
        this.#cancel.ping = this.#schedule.every(this.o.pingMs, () => ws.readyState === ws.OPEN && ws.send(text));
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
      this.#cancel.retry = this.#schedule.after(delay, () => this.#connect());
    });
  }
}
