/**
 * Coinbase Exchange public `ticker` channel over WebSocket: subscribe to BTC-USD, ETH-USD and
 * SOL-USD, turn each ticker message into a Tick; reconnects and silence are the shared
 * ReconnectingSocket's.
 */
import { z } from 'zod';
import type { Asset, Tick } from '../../model/index.js';
import type { Logger } from '../../runtime/log.js';
import type { PriceSource } from '../prices/price-source.js';
import { ReconnectingSocket } from '../stream/reconnecting-socket.js';

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
}

// The heartbeat channel speaks every second, so 30 s of silence means a dead socket.
const SILENCE_MS = 30_000;

export function createCoinbasePrices(opts: CoinbaseOptions): PriceSource {
  let socket: ReconnectingSocket | undefined;
  return {
    name: 'coinbase',
    async start(onTick) {
      socket = new ReconnectingSocket({
        name: 'coinbase',
        url: opts.url,
        log: opts.log,
        silenceMs: SILENCE_MS,
        subscribe: JSON.stringify({
          type: 'subscribe',
          product_ids: [...COINBASE_PRODUCTS.keys()],
          channels: ['ticker', 'heartbeat'],
        }),
        onMessage: (text) => {
          const tick = parseCoinbaseMessage(text);
          if (tick) onTick(tick);
        },
      });
      socket.start();
    },
    async stop() {
      socket?.stop();
    },
  };
}
