/**
 * The Coinbase price source against a local WebSocket server that speaks the exchange's documented
 * ticker format (the recorded capture plus frames of the same shape for our products), through the
 * feed into real Redis pub/sub: subscription, parsing, publishing, and reconnecting after a drop.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { loadConfig } from '../../src/config.js';
import { Tick } from '../../src/model/index.js';
import { startFeed } from '../../workers/feed/feed.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const RECORDED = readFileSync(
  resolve(import.meta.dirname, '../fixtures/recorded/coinbase-ticker-messages.jsonl'),
  'utf8',
)
  .trim()
  .split('\n');

/** A recorded ticker message re-labelled as one of our products at a given price. */
const ticker = (product: string, price: string, time: string) =>
  JSON.stringify({ ...JSON.parse(RECORDED[0]!), product_id: product, price, time });

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function exchange(): Promise<{
  url: string;
  server: WebSocketServer;
  subscriptions: unknown[];
  sockets: WebSocket[];
}> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const subscriptions: unknown[] = [];
  const sockets: WebSocket[] = [];
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (d) => subscriptions.push(JSON.parse(d.toString())));
  });
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}`, server, subscriptions, sockets };
}

async function tickListener(): Promise<Tick[]> {
  const sub = new Redis(redis.url);
  cleanups.push(() => sub.disconnect());
  const ticks: Tick[] = [];
  sub.on('message', (_channel: string, message: string) => ticks.push(Tick.parse(JSON.parse(message))));
  await sub.subscribe('pw:ticks:BTC', 'pw:ticks:ETH', 'pw:ticks:SOL');
  return ticks;
}

describe('coinbase price feed', () => {
  it('subscribes to our products, ignores other products and junk, and publishes ticks', async () => {
    const ex = await exchange();
    const ticks = await tickListener();
    const feed = await startFeed(
      loadConfig({ REDIS_URL: redis.url, SOURCES: 'prices=coinbase', COINBASE_WS_URL: ex.url }),
      log,
    );
    cleanups.push(() => feed.stop());

    await expect.poll(() => ex.subscriptions.length, { timeout: 5_000 }).toBe(1);
    expect(ex.subscriptions[0]).toEqual({
      type: 'subscribe',
      product_ids: ['BTC-USD', 'ETH-USD', 'SOL-USD'],
      channels: ['ticker', 'heartbeat'],
    });
    const socket = ex.sockets[0]!;
    for (const line of RECORDED) socket.send(line); // real captures: other products, all ignored
    socket.send('{"type":"subscriptions","channels":[]}');
    socket.send('garbage');
    socket.send(ticker('BTC-USD', '97012.55', '2026-11-22T14:05:01.123456Z'));
    socket.send(ticker('ETH-USD', '3401.2', '2026-11-22T14:05:01.500000Z'));

    await expect.poll(() => ticks.length, { timeout: 5_000 }).toBe(2);
    // Each asset's first tick carries the prior volatility (annual 0.55 and 0.7, per second of a 365-day year).
    expect(ticks).toEqual([
      {
        asset: 'BTC',
        price: 97012.55,
        ts: '2026-11-22T14:05:01.123Z',
        source: 'coinbase',
        variance: (0.55 * 0.55) / 31_536_000,
      },
      {
        asset: 'ETH',
        price: 3401.2,
        ts: '2026-11-22T14:05:01.500Z',
        source: 'coinbase',
        variance: (0.7 * 0.7) / 31_536_000,
      },
    ]);
  });

  it('reconnects and resubscribes after the exchange drops the connection', async () => {
    const ex = await exchange();
    const ticks = await tickListener();
    const feed = await startFeed(
      loadConfig({ REDIS_URL: redis.url, SOURCES: 'prices=coinbase', COINBASE_WS_URL: ex.url }),
      log,
    );
    cleanups.push(() => feed.stop());
    await expect.poll(() => ex.sockets.length, { timeout: 5_000 }).toBe(1);
    ex.sockets[0]!.terminate();
    // First reconnect waits a jittered 0-500 ms.
    await expect.poll(() => ex.subscriptions.length, { timeout: 5_000 }).toBe(2);
    ex.sockets[1]!.send(ticker('SOL-USD', '187.31', '2026-11-22T14:06:00.000000Z'));
    await expect.poll(() => ticks.map((t) => t.price), { timeout: 5_000 }).toEqual([187.31]);
  });
});
