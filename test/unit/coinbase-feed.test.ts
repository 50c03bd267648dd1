import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Tick } from '../../src/model/index.js';
import { COINBASE_PRODUCTS, parseCoinbaseMessage } from '../../src/sources/coinbase/ticker.js';

// Real Coinbase Exchange `ticker` messages (2021-04-17), for products we do not track.
const LINES = readFileSync(new URL('../fixtures/recorded/coinbase-ticker-messages.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

/** A recorded message with its product and price replaced: the real documented shape for our products. */
function recordedAs(productId: string, price: string, line = LINES[0]!): string {
  const msg = JSON.parse(line) as Record<string, unknown>;
  msg.product_id = productId;
  msg.price = price;
  return JSON.stringify(msg);
}

describe('parseCoinbaseMessage on recorded messages', () => {
  it('has the recorded fixture: 8 ticker messages, none for our products', () => {
    expect(LINES.length).toBe(8);
    for (const l of LINES) {
      const m = JSON.parse(l) as { type: string; product_id: string };
      expect(m.type).toBe('ticker');
      expect([...COINBASE_PRODUCTS.keys()]).not.toContain(m.product_id);
    }
  });

  it('ignores tickers for products we do not track (including *-BTC pairs)', () => {
    for (const l of LINES) expect(parseCoinbaseMessage(l)).toBeUndefined();
  });

  it('turns a BTC-USD ticker into a Tick in the wire format', () => {
    // LINES[0] has "time":"2021-04-17T16:43:30.244075Z": microseconds truncate to .244
    const tick = parseCoinbaseMessage(recordedAs('BTC-USD', '97012.55'));
    expect(tick).toEqual({ asset: 'BTC', price: 97012.55, ts: '2021-04-17T16:43:30.244Z', source: 'coinbase' });
    expect(() => Tick.parse(tick)).not.toThrow();
  });

  it('maps ETH-USD and SOL-USD, for every recorded line', () => {
    for (const l of LINES) {
      const time = (JSON.parse(l) as { time: string }).time;
      const eth = parseCoinbaseMessage(recordedAs('ETH-USD', '3401.07', l));
      expect(eth?.asset).toBe('ETH');
      expect(eth?.price).toBe(3401.07);
      // Same instant to the millisecond: "2021-04-17T16:43:29.571587Z" -> "2021-04-17T16:43:29.571Z"
      expect(eth?.ts).toBe(`${time.slice(0, 23)}Z`);
      const sol = parseCoinbaseMessage(recordedAs('SOL-USD', '185', l));
      expect(sol).toMatchObject({ asset: 'SOL', price: 185, source: 'coinbase' });
    }
  });

  it('rejects a price that is not a positive decimal string', () => {
    for (const price of ['abc', '', '-5', '0', '0.000', '1e5', 'NaN', 'Infinity', ' 97000', '97,000.00']) {
      expect({ price, tick: parseCoinbaseMessage(recordedAs('BTC-USD', price)) }).toEqual({ price, tick: undefined });
    }
    const numeric = JSON.parse(LINES[0]!) as Record<string, unknown>;
    numeric.product_id = 'BTC-USD';
    numeric.price = 97012.55; // a number, not the documented string
    expect(parseCoinbaseMessage(JSON.stringify(numeric))).toBeUndefined();
  });

  it('rejects a ticker without a parseable time', () => {
    const msg = JSON.parse(recordedAs('BTC-USD', '97012.55')) as Record<string, unknown>;
    msg.time = 'yesterday';
    expect(parseCoinbaseMessage(JSON.stringify(msg))).toBeUndefined();
    delete msg.time;
    expect(parseCoinbaseMessage(JSON.stringify(msg))).toBeUndefined();
  });

  it('rejects product ids that only look like ours', () => {
    for (const id of ['btc-usd', 'BTC-USDT', 'BTC-EUR', 'BTC', 'USD-BTC', '']) {
      expect(parseCoinbaseMessage(recordedAs(id, '97012.55'))).toBeUndefined();
    }
  });

  it('rejects product ids that name Object.prototype members', () => {
    // A plain-object lookup of "toString" would find Object.prototype.toString.
    for (const id of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect({ id, tick: parseCoinbaseMessage(recordedAs(id, '97012.55')) }).toEqual({ id, tick: undefined });
    }
  });
});

describe('parseCoinbaseMessage on other channel messages and junk', () => {
  it('ignores heartbeats, subscription acks and errors', () => {
    // Shapes as documented for the Coinbase Exchange WebSocket feed.
    const others = [
      {
        type: 'heartbeat',
        sequence: 90,
        last_trade_id: 20,
        product_id: 'BTC-USD',
        time: '2014-11-07T08:19:28.464459Z',
      },
      { type: 'subscriptions', channels: [{ name: 'ticker', product_ids: ['BTC-USD', 'ETH-USD', 'SOL-USD'] }] },
      { type: 'error', message: 'Failed to subscribe', reason: 'BTC-XYZ is not a valid product' },
      // A match (trade) message carries a price too, but is not the ticker channel.
      {
        type: 'match',
        product_id: 'BTC-USD',
        price: '97012.55',
        time: '2021-04-17T16:43:30.244075Z',
        size: '0.01',
        side: 'buy',
      },
    ];
    for (const m of others) expect(parseCoinbaseMessage(JSON.stringify(m))).toBeUndefined();
  });

  it('ignores junk', () => {
    for (const junk of ['', 'not json', '{', 'null', '[]', '42', '"ticker"', '{}', '{"type":"ticker"}']) {
      expect(parseCoinbaseMessage(junk)).toBeUndefined();
    }
  });
});
