/**
 * A local Polymarket CLOB market channel: accepts `{"assets_ids": [...], "type": "market"}`,
 * answers with the `book` messages it holds for those tokens (in one array, as the initial books
 * arrive), answers the text PING with PONG, and lets a test push more messages or drop sockets.
 * Books are the recorded book message with a test's own levels.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

const RECORDED_BOOK = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/recorded/polymarket-clob-ws-book.json'), 'utf8')) as Record<string, unknown>;
export const RECORDED_PRICE_CHANGE = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/documented/polymarket-clob-ws-price-change.json'), 'utf8'),
) as Record<string, unknown>;

export interface Level {
  price: string;
  size: string;
}

/** A book message for `assetId`: the recorded one, or with these levels. */
export function bookMessage(assetId: string, levels?: { bids: Level[]; asks: Level[] }): Record<string, unknown> {
  return { ...RECORDED_BOOK, asset_id: assetId, ...(levels ?? {}) };
}

export interface ClobReplay {
  url: string;
  /** The book message served per token on subscription. */
  books: Map<string, Record<string, unknown>>;
  /** The assets_ids of every subscription received, in order. */
  subscriptions: string[][];
  sockets: WebSocket[];
  /** Sends a message to every open socket. */
  broadcast(message: unknown): void;
  /** Terminates every open socket, as a venue dropping its connections. */
  dropAll(): void;
  stop(): Promise<void>;
}

export async function startClobReplay(): Promise<ClobReplay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const replay: ClobReplay = {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/ws/market`,
    books: new Map(),
    subscriptions: [],
    sockets: [],
    broadcast: (message) => {
      for (const s of replay.sockets) if (s.readyState === s.OPEN) s.send(JSON.stringify(message));
    },
    dropAll: () => {
      for (const s of replay.sockets) s.terminate();
    },
    stop: () => {
      replay.dropAll(); // the server keeps open connections on close
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
  server.on('connection', (socket) => {
    replay.sockets.push(socket);
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'PING') return socket.send('PONG');
      const sub = JSON.parse(text) as { assets_ids?: string[]; type?: string };
      if (sub.type !== 'market' || !Array.isArray(sub.assets_ids)) return;
      replay.subscriptions.push(sub.assets_ids);
      const books = sub.assets_ids.flatMap((id) => replay.books.get(id) ?? []);
      if (books.length > 0) socket.send(JSON.stringify(books));
    });
  });
  return replay;
}
