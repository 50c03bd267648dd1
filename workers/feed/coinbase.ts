/**
 * Coinbase Exchange public `ticker` channel over WebSocket: subscribe to BTC-USD, ETH-USD and
 * SOL-USD, turn each ticker message into a Tick, reconnect with jittered backoff, and reconnect
 * when the socket goes silent.
 */
import WebSocket from 'ws';
import { z } from 'zod';
import type { Asset, Tick } from '../../src/live/market.js';
import { backoffDelay } from '../../src/sources/http/backoff.js';
import type { Logger } from '../../src/log.js';
import type { PriceSource } from './price-source.js';

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
}

export function createCoinbasePrices(opts: CoinbaseOptions): PriceSource {
  const silenceMs = opts.silenceMs ?? 30_000;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  let socket: WebSocket | undefined;
  let stopped = false;
  let attempt = 0;
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
      arm();
    });
    ws.on('message', (data) => {
      arm();
      attempt = 0; // a live stream resets the backoff
      const tick = parseCoinbaseMessage(data.toString());
      if (tick) onTick(tick);
    });
    ws.on('error', (err) => {
      if (attempt === 0) opts.log.warn({ err: err.message }, 'coinbase feed error');
    });
    ws.on('close', () => {
      clearTimeout(watchdog);
      if (stopped) return;
      // Full jitter, as for every upstream: a fleet of feeds does not reconnect in step.
      retry = setTimeout(() => connect(onTick), backoffDelay(attempt++, { baseMs: 500, maxMs: maxBackoff }));
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
