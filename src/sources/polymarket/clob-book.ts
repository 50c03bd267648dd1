/**
 * Polymarket CLOB market channel (`/ws/market`): the `book` snapshot and `price_change` messages,
 * and the per-token order books they maintain. Prices arrive as decimal strings (".48", "0.5");
 * a level whose size is 0 is removed. Other message types (last_trade_price, tick_size_change,
 * best_bid_ask, ...) are ignored.
 */
import { z } from 'zod';
import { NO_ASKS, tradable, type UpDownAsks } from '../quotes/quote-source.js';

const Decimal = z
  .string()
  .regex(/^(\d+\.?\d*|\.\d+)$/, 'decimal string')
  .transform(Number);
const Level = z.object({ price: Decimal, size: Decimal });
/** The venue's own time of the message, epoch ms as a string ("1786604072222"); unreadable reads as absent. */
const VenueTime = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number)
  .optional()
  .catch(undefined);

export const ClobBookMessage = z.object({
  event_type: z.literal('book'),
  asset_id: z.string().min(1),
  bids: z.array(Level),
  asks: z.array(Level),
  timestamp: VenueTime,
});

/** The current format: one message carries changes for several tokens of a market. */
export const ClobPriceChangeMessage = z.object({
  event_type: z.literal('price_change'),
  price_changes: z.array(
    z.object({ asset_id: z.string().min(1), price: Decimal, size: Decimal, side: z.enum(['BUY', 'SELL']) }),
  ),
  timestamp: VenueTime,
});

const ClobMessage = z.discriminatedUnion('event_type', [ClobBookMessage, ClobPriceChangeMessage]);
export type ClobMessage = z.infer<typeof ClobMessage>;

/**
 * The book and price-change messages in one text frame (the venue sends a single object or an
 * array of them, e.g. the initial books); anything else (PONG, other event types, junk) is skipped.
 */
export function parseClobFrame(text: string): ClobMessage[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  const out: ClobMessage[] = [];
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    const msg = ClobMessage.safeParse(item);
    if (msg.success) out.push(msg.data);
  }
  return out;
}

interface Book {
  /** price → size */
  bids: Map<number, number>;
  asks: Map<number, number>;
  /** The venue's time of the latest message applied to this book (epoch ms), when it said. */
  at?: number;
}

const setLevel = (side: Map<number, number>, price: number, size: number) =>
  size > 0 ? side.set(price, size) : side.delete(price);

/** Order books per token id, fed with channel messages. */
export class ClobBooks {
  private readonly books = new Map<string, Book>();

  /** Applies one message; returns the token ids it touched. Changes for a token without a snapshot are ignored. */
  apply(msg: ClobMessage): string[] {
    if (msg.event_type === 'book') {
      const book: Book = {
        bids: new Map(),
        asks: new Map(),
        ...(msg.timestamp !== undefined ? { at: msg.timestamp } : {}),
      };
      for (const l of msg.bids) setLevel(book.bids, l.price, l.size);
      for (const l of msg.asks) setLevel(book.asks, l.price, l.size);
      this.books.set(msg.asset_id, book);
      return [msg.asset_id];
    }
    const touched: string[] = [];
    for (const c of msg.price_changes) {
      const book = this.books.get(c.asset_id);
      if (!book) continue;
      setLevel(c.side === 'BUY' ? book.bids : book.asks, c.price, c.size);
      if (msg.timestamp !== undefined) book.at = Math.max(book.at ?? 0, msg.timestamp);
      touched.push(c.asset_id);
    }
    return touched;
  }

  /**
   * The venue's time of the latest message on either token's book (epoch ms): when the venue last
   * said anything about this market. Undefined when neither book carries a time.
   */
  venueTime(upToken: string, downToken: string): number | undefined {
    const times = [this.books.get(upToken)?.at, this.books.get(downToken)?.at].filter(
      (t): t is number => t !== undefined,
    );
    return times.length > 0 ? Math.max(...times) : undefined;
  }

  has(tokenId: string): boolean {
    return this.books.has(tokenId);
  }

  /** Forgets every book except those of `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of this.books.keys()) if (!keep.has(id)) this.books.delete(id);
  }

  clear(): void {
    this.books.clear();
  }

  /**
   * The token's best ask when it can be bought: undefined when the book is unknown or has no ask,
   * when it is crossed (best bid at or above best ask) or the ask is not strictly inside (0, 1).
   */
  usableAsk(tokenId: string): number | undefined {
    const book = this.books.get(tokenId);
    if (!book || book.asks.size === 0) return undefined;
    const ask = Math.min(...book.asks.keys());
    const bid = book.bids.size > 0 ? Math.max(...book.bids.keys()) : undefined;
    if (bid !== undefined && bid >= ask) return undefined;
    return tradable(ask) ? ask : undefined;
  }

  /** Up and down asks of a market; both null unless both sides can be bought. */
  upDownAsks(upToken: string, downToken: string): UpDownAsks {
    const up = this.usableAsk(upToken);
    const down = this.usableAsk(downToken);
    return up !== undefined && down !== undefined ? { up, down } : NO_ASKS;
  }
}
