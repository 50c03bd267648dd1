/**
 * The venue history normalizers on the documented shapes (test/fixtures/documented): Kalshi
 * candles read from their dollar strings (the integer cents only where a candle has none), an empty
 * side is no price, and a malformed point or candle is dropped and reported while the rest is kept.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeCandlesticks } from '../../src/sources/kalshi/candlesticks.js';
import { normalizePricesHistory } from '../../src/sources/polymarket/prices-history.js';

const documented = (name: string) =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/documented', name), 'utf8'));

describe('Kalshi candlesticks', () => {
  it("reads each candle's closing YES bid and ask in dollars", () => {
    const body = documented('kalshi-market-candlesticks.json');
    const { quotes, dropped } = normalizeCandlesticks(body, body.ticker);
    expect(dropped).toEqual([]);
    expect(quotes).toHaveLength(body.candlesticks.length);
    const last = body.candlesticks.at(-1);
    expect(quotes.at(-1)).toEqual({
      t: last.end_period_ts,
      yesAsk: Number(last.yes_ask.close_dollars),
      yesBid: Number(last.yes_bid.close_dollars),
    });
  });

  it('falls back to cents, reads an empty side as no price, and drops a malformed candle', () => {
    const { quotes, dropped } = normalizeCandlesticks(
      {
        candlesticks: [
          { end_period_ts: 200, yes_bid: { close: 41 }, yes_ask: { close: 44 } },
          {
            end_period_ts: 100,
            yes_bid: { close_dollars: '0.0000', close: 0 },
            yes_ask: { close_dollars: '0.4500', close: 12 },
          },
          { end_period_ts: 'soon', yes_bid: null, yes_ask: null },
        ],
      },
      'KXTEST-1',
    );
    expect(quotes).toEqual([
      { t: 100, yesAsk: 0.45, yesBid: undefined },
      { t: 200, yesAsk: 0.44, yesBid: 0.41 },
    ]);
    expect(dropped).toMatchObject([{ id: 'KXTEST-1[2]', class: 'schema' }]);
  });
});

describe('Polymarket prices-history', () => {
  it('keeps every valid point, oldest first, and drops a malformed one', () => {
    const body = documented('polymarket-clob-prices-history.json');
    expect(normalizePricesHistory(body, 'token').points).toEqual(body.history);
    const { points, dropped } = normalizePricesHistory(
      {
        history: [
          { t: 20, p: '0.5' },
          { t: 10, p: 0.25 },
          { t: 30, p: 1.5 },
        ],
      },
      '123',
    );
    expect(points).toEqual([
      { t: 10, p: 0.25 },
      { t: 20, p: 0.5 },
    ]);
    expect(dropped).toHaveLength(1);
  });
});
