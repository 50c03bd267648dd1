/**
 * A local Polymarket CLOB market channel: accepts `{"assets_ids": [...], "type": "market"}`,
 * answers with the `book` messages it holds for those tokens (in one array, as the initial books
 * arrive), answers the text PING with PONG, and lets a test push more messages or drop sockets.
 * Books are the recorded book message with a test's own levels, stamped with the venue's clock
 * (`clock`, the wall clock unless a test sets its own) when sent, as the venue stamps each message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

const RECORDED_BOOK = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/recorded/polymarket-clob-ws-book.json'), 'utf8'),
) as Record<string, unknown>;
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
  /** The venue's clock (epoch ms) stamped on the books it serves. */
  clock: () => number;
  /** Whether the books served carry the venue's time (false: sent as stored, with their recorded stamp). */
  stampBooks: boolean;
  /** While true the venue keeps its sockets open but answers nothing (no book, no PONG): a silent socket. */
  silent: boolean;
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
    clock: Date.now,
    stampBooks: true,
    silent: false,
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
      if (replay.silent) return;
      const text = data.toString();
      if (text === 'PING') return socket.send('PONG');
      const sub = JSON.parse(text) as { assets_ids?: string[]; type?: string };
      if (sub.type !== 'market' || !Array.isArray(sub.assets_ids)) return;
      replay.subscriptions.push(sub.assets_ids);
      const stamp = (b: Record<string, unknown>) =>
        replay.stampBooks ? { ...b, timestamp: String(replay.clock()) } : b;
      const books = sub.assets_ids.flatMap((id) => {
        const b = replay.books.get(id);
        return b ? [stamp(b)] : [];
      });
      if (books.length > 0) socket.send(JSON.stringify(books));
    });
  });
  return replay;
}
