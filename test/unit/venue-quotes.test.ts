/** Pure parts of the venue quote sources: CLOB books, Gamma up/down events, Kalshi 15-minute markets. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClobBooks, parseClobFrame } from '../../src/sources/polymarket/clob-book.js';
import { parseUpDownEvent, upDownSlug } from '../../src/sources/polymarket/updown-events.js';
import { currentMarket, Kalshi15mMarket, kalshiAsks, kalshiQuote } from '../../src/sources/kalshi/crypto-15m.js';

const fixture = (path: string) => readFileSync(resolve(import.meta.dirname, '../fixtures', path), 'utf8');
const BOOK = fixture('recorded/polymarket-clob-ws-book.json');
const PRICE_CHANGE = fixture('documented/polymarket-clob-ws-price-change.json');
const EVENT = JSON.parse(fixture('documented/polymarket-gamma-updown-event.json')) as Record<string, unknown>;
const KALSHI = JSON.parse(fixture('documented/kalshi-crypto-15m-market.json')) as Record<string, unknown>;
const TOKEN = '350977769852917329387037893294763093471844346281449484439085576212613048126';
const WINDOW = Date.parse('2025-11-22T14:00:00Z');

const book = (asset: string, bids: string[], asks: string[]) =>
  JSON.stringify({
    event_type: 'book',
    asset_id: asset,
    bids: bids.map((price) => ({ price, size: '10' })),
    asks: asks.map((price) => ({ price, size: '10' })),
  });

function booksOf(...frames: string[]): ClobBooks {
  const books = new ClobBooks();
  for (const f of frames) for (const m of parseClobFrame(f)) books.apply(m);
  return books;
}

describe('CLOB market channel books', () => {
  it('takes the lowest ask of the recorded book and follows price changes', () => {
    const books = booksOf(BOOK);
    expect(books.usableAsk(TOKEN)).toBe(0.08);
    for (const m of parseClobFrame(PRICE_CHANGE)) expect(books.apply(m)).toEqual([TOKEN, TOKEN]);
    expect(books.usableAsk(TOKEN)).toBe(0.09);
  });

  it("keeps the venue's own time of each book: the book's, then the latest price change's", () => {
    const books = booksOf(BOOK);
    expect(books.venueTime(TOKEN, 'other')).toBe(Number((JSON.parse(BOOK) as { timestamp: string }).timestamp));
    for (const m of parseClobFrame(PRICE_CHANGE)) books.apply(m);
    expect(books.venueTime('other', TOKEN)).toBe(Number((JSON.parse(PRICE_CHANGE) as { timestamp: string }).timestamp));
    // A book without a time says nothing about its age.
    expect(booksOf(book('up', [], ['0.5'])).venueTime('up', 'down')).toBeUndefined();
  });

  it('reads an array frame, leading-dot prices, and skips PONG, junk and other event types', () => {
    expect(parseClobFrame('PONG')).toEqual([]);
    expect(parseClobFrame('{"event_type":"last_trade_price","asset_id":"a","price":"0.5"}')).toEqual([]);
    const books = booksOf(`[${book('up', ['.48'], ['.52', '.53'])},${book('down', ['.47'], ['.5'])}]`);
    expect(books.upDownAsks('up', 'down')).toEqual({ up: 0.52, down: 0.5 });
  });

  it('has no usable ask for an empty ask side, a crossed book, an unknown token or a price of 1', () => {
    const books = booksOf(
      book('empty', ['0.4'], []),
      book('crossed', ['0.55'], ['0.54']),
      book('one', [], ['1']),
      book('ok', [], ['0.6']),
    );
    expect(books.usableAsk('empty')).toBeUndefined();
    expect(books.usableAsk('crossed')).toBeUndefined();
    expect(books.usableAsk('one')).toBeUndefined();
    expect(books.usableAsk('unknown')).toBeUndefined();
    expect(books.has('unknown')).toBe(false);
    // Both asks or neither: a venue with one side is out.
    expect(books.upDownAsks('ok', 'empty')).toEqual({ up: null, down: null });
  });

  it('ignores a change for a token it has no snapshot of, and forgets books it is not asked to keep', () => {
    const books = booksOf(book('a', [], ['0.6']), book('b', [], ['0.4']));
    const change = parseClobFrame(
      JSON.stringify({
        event_type: 'price_change',
        price_changes: [{ asset_id: 'zzz', price: '0.1', size: '5', side: 'SELL' }],
      }),
    );
    expect(books.apply(change[0]!)).toEqual([]);
    books.retain(new Set(['b']));
    expect([books.has('a'), books.has('b')]).toEqual([false, true]);
  });
});

describe('Gamma up/down events', () => {
  it('names the window by its start in epoch seconds', () => {
    expect(upDownSlug('BTC', 15, WINDOW)).toBe('btc-updown-15m-1763820000');
    expect(upDownSlug('SOL', 5, WINDOW + 300_000)).toBe('sol-updown-5m-1763820300');
  });

  it('reads the Up and Down tokens, the start price and the market page', () => {
    expect(parseUpDownEvent(EVENT, 'BTC', 15, WINDOW)).toEqual({
      slug: 'btc-updown-15m-1763820000',
      windowStartMs: WINDOW,
      endMs: WINDOW + 900_000,
      upToken: TOKEN,
      downToken: '48331043336612883890938759509493159234755048973500640148014422747788308965732',
      priceToBeat: 97005.12,
      marketUrl: 'https://polymarket.com/event/btc-updown-15m-1763820000',
    });
  });

  it('maps tokens by outcome name, and takes an unpublished start price as null', () => {
    const market = (EVENT.markets as Record<string, unknown>[])[0]!;
    const swapped = { ...EVENT, eventMetadata: null, markets: [{ ...market, outcomes: '["Down", "Up"]' }] };
    expect(parseUpDownEvent(swapped, 'BTC', 15, WINDOW)).toMatchObject({
      upToken: '48331043336612883890938759509493159234755048973500640148014422747788308965732',
      priceToBeat: null,
    });
  });

  it('refuses another window, a closed event or market, and outcomes that are not Up/Down', () => {
    const market = (EVENT.markets as Record<string, unknown>[])[0]!;
    expect(parseUpDownEvent(EVENT, 'BTC', 15, WINDOW + 900_000)).toBeUndefined();
    expect(parseUpDownEvent(EVENT, 'ETH', 15, WINDOW)).toBeUndefined();
    expect(parseUpDownEvent({ ...EVENT, closed: true }, 'BTC', 15, WINDOW)).toBeUndefined();
    expect(parseUpDownEvent({ ...EVENT, markets: [{ ...market, closed: true }] }, 'BTC', 15, WINDOW)).toBeUndefined();
    expect(
      parseUpDownEvent({ ...EVENT, markets: [{ ...market, outcomes: '["Yes", "No"]' }] }, 'BTC', 15, WINDOW),
    ).toBeUndefined();
  });
});

describe('Kalshi 15-minute crypto markets', () => {
  const market = Kalshi15mMarket.parse(KALSHI);

  it("quotes YES as up and NO as down, with its own strike and event page, stamped with the venue's answer time", () => {
    expect(kalshiQuote('BTC', market, WINDOW + 60_000, WINDOW + 59_000)).toEqual({
      asset: 'BTC',
      horizonMinutes: 15,
      operatorId: 'kalshi',
      windowStart: '2025-11-22T14:00:00.000Z',
      expiresAt: '2025-11-22T14:15:00.000Z',
      up: 0.53,
      down: 0.49,
      strike: 97012.55,
      marketUrl: 'https://kalshi.com/events/KXBTC15M-25NOV220915',
      ts: '2025-11-22T14:01:00.000Z',
      venueTs: '2025-11-22T14:00:59.000Z',
      source: 'kalshi-rest',
    });
  });

  it('has no asks for an empty side (0 or 1.00) or a crossed book, and no strike before it is set', () => {
    expect(kalshiAsks({ ...market, yes_ask_dollars: '1.0000' })).toEqual({ up: null, down: null });
    expect(kalshiAsks({ ...market, no_ask_dollars: '0.0000' })).toEqual({ up: null, down: null });
    expect(kalshiAsks({ ...market, yes_bid_dollars: '0.5300' })).toEqual({ up: null, down: null });
    expect(kalshiQuote('BTC', { ...market, floor_strike: null }, WINDOW, WINDOW).strike).toBeNull();
  });

  it('picks the market whose window holds the time, skipping invalid ones', () => {
    const next = { ...KALSHI, ticker: 'NEXT', open_time: '2025-11-22T14:15:00Z', close_time: '2025-11-22T14:30:00Z' };
    const raws = [{ ticker: 'broken' }, next, KALSHI];
    expect(currentMarket(raws, WINDOW)?.ticker).toBe('KXBTC15M-25NOV220915-15');
    expect(currentMarket(raws, WINDOW + 900_000)?.ticker).toBe('NEXT');
    expect(currentMarket(raws, WINDOW - 1)).toBeUndefined();
  });
});
