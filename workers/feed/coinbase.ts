/**
 * Coinbase Exchange public `ticker` channel over WebSocket: subscribe to BTC-USD, ETH-USD and
 * SOL-USD, turn each ticker message into a Tick, reconnect with jittered backoff, and reconnect
 * when the socket goes silent.
 */
import WebSocket from 'ws';
import { z } from 'zod';
import type { Asset, Tick } from '../../src/live/market.js';
import type { Logger } from '../../src/log.js';
import type { PriceSource } from './price-source.js';
import { ReconnectBackoff } from './reconnect.js';

// A Map, not an object literal: a product id such as "toString" must not find a prototype member.
export const COINBASE_PRODUCTS: ReadonlyMap<string, Asset> = new Map([
  ['BTC-USD', 'BTC'],
  ['ETH-USD', 'ETH'],
  ['SOL-USD', 'SOL'],
]);

const TickerMessage = z.object({
  type: z.literal('ticker'),
  product_id: z.string(),
  price: z.string().regex(/^\d+(\.\d+)?$/),
  time: z.string(),
});

/** A ticker message for one of our products as a Tick; anything else (other products, heartbeats, subscription acks, junk) is undefined. */
export function parseCoinbaseMessage(text: string): Tick | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const msg = TickerMessage.safeParse(raw);
  if (!msg.success) return undefined;
  const asset = COINBASE_PRODUCTS.get(msg.data.product_id);
  const price = Number(msg.data.price);
  const ms = Date.parse(msg.data.time);
  if (!asset || !(price > 0) || Number.isNaN(ms)) return undefined;
  return { asset, price, ts: new Date(ms).toISOString(), source: 'coinbase' };
}

export interface CoinbaseOptions {
  url: string;
  log: Logger;
  /** Reconnect when nothing arrives for this long. */
  silenceMs?: number;
  maxBackoffMs?: number;
  /** A connection up this long resets the reconnect backoff (default 30 s). */
  healthyMs?: number;
}

export function createCoinbasePrices(opts: CoinbaseOptions): PriceSource {
  const silenceMs = opts.silenceMs ?? 30_000;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  let socket: WebSocket | undefined;
  let stopped = false;
  const backoff = new ReconnectBackoff({ baseMs: 500, maxMs: maxBackoff, healthyMs: opts.healthyMs ?? 30_000 });
  let failing = false;
  let retry: NodeJS.Timeout | undefined;
  let watchdog: NodeJS.Timeout | undefined;

  const connect = (onTick: (t: Tick) => void) => {
    const ws = new WebSocket(opts.url);
    socket = ws;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => ws.terminate(), silenceMs);
    };
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'subscribe', product_ids: [...COINBASE_PRODUCTS.keys()], channels: ['ticker', 'heartbeat'] }));
      backoff.opened(Date.now());
      arm();
    });
    ws.on('message', (data) => {
      arm();
      const tick = parseCoinbaseMessage(data.toString());
      if (tick) onTick(tick);
    });
    ws.on('error', (err) => {
      // One warning per run of failures, not one per reconnect.
      if (!failing) opts.log.warn({ err: err.message }, 'coinbase feed error');
      failing = true;
    });
    ws.on('close', () => {
      clearTimeout(watchdog);
      if (stopped) return;
      // The backoff resets only after a connection stayed healthy; jitter keeps a fleet out of step.
      const delay = backoff.closed(Date.now());
      if (backoff.wasHealthy) failing = false;
      retry = setTimeout(() => connect(onTick), delay);
    });
  };

  return {
    name: 'coinbase',
    async start(onTick) {
      stopped = false;
      connect(onTick);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(watchdog);
      socket?.close();
    },
  };
}
