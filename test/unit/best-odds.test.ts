import { describe, it, expect } from 'vitest';
import type { BookOdds } from '../../src/model/index.js';
import {
  compareMoneyline,
  compareOver,
  compareSpread,
  compareUnder,
  LINE_KEYS,
  lowestPriceLeaders,
  sportsbookLeaders,
} from '../../src/domain/best-odds.js';
import { formatAmerican, probabilityToAmerican } from '../../src/domain/odds.js';
import { afterFeePrice } from '../../src/catalog/fee-schedules.js';

const T = '2026-11-22T14:00:00.000Z';

function book(operatorId: string, lines: Omit<BookOdds, 'operatorId' | 'lastUpdate'>): BookOdds {
  return { operatorId, lastUpdate: T, ...lines };
}

describe('lowestPriceLeaders', () => {
  it('picks the lowest YES price', () => {
    const leaders = lowestPriceLeaders([
      { id: 'a', price: 0.62 },
      { id: 'b', price: 0.6 },
      { id: 'c', price: 0.61 },
    ]);
    expect([...leaders]).toEqual(['b']);
  });

  it('flags every tied operator', () => {
    const leaders = lowestPriceLeaders([
      { id: 'a', price: 0.6 },
      { id: 'b', price: 0.7 },
      { id: 'c', price: 0.6 },
    ]);
    expect([...leaders].sort()).toEqual(['a', 'c']);
  });

  it('treats float noise as a tie', () => {
    // 0.1 + 0.2 = 0.30000000000000004
    const leaders = lowestPriceLeaders([
      { id: 'a', price: 0.1 + 0.2 },
      { id: 'b', price: 0.3 },
    ]);
    expect([...leaders].sort()).toEqual(['a', 'b']);
  });

  it('does not tie prices a real tick apart', () => {
    const leaders = lowestPriceLeaders([
      { id: 'a', price: 0.3 },
      { id: 'b', price: 0.3001 },
    ]);
    expect([...leaders]).toEqual(['a']);
  });

  it('returns an empty set for no entries', () => {
    expect(lowestPriceLeaders([]).size).toBe(0);
  });
});

describe('comparators', () => {
  it('compareSpread: higher signed point first, whatever the price', () => {
    expect(compareSpread({ point: 3.5, price: -120 }, { point: 3, price: 110 })).toBeGreaterThan(0);
    expect(compareSpread({ point: -3, price: 150 }, { point: -2.5, price: -130 })).toBeLessThan(0);
  });

  it('compareSpread: higher payout on equal points, 0 on a full tie', () => {
    // -105 → 1.9524 beats -110 → 1.9091
    expect(compareSpread({ point: 3.5, price: -105 }, { point: 3.5, price: -110 })).toBeGreaterThan(0);
    expect(compareSpread({ point: 3.5, price: -110 }, { point: 3.5, price: -110 })).toBe(0);
  });

  it('compareOver: lower total first; compareUnder: higher total first', () => {
    const low = { point: 220.5, price: -110 };
    const high = { point: 221.5, price: -105 };
    expect(compareOver(low, high)).toBeGreaterThan(0);
    expect(compareOver(high, low)).toBeLessThan(0);
    expect(compareUnder(high, low)).toBeGreaterThan(0);
    expect(compareUnder(low, high)).toBeLessThan(0);
  });

  it('compareOver and compareUnder fall back to payout on equal totals', () => {
    const better = { point: 220.5, price: 100 };
    const worse = { point: 220.5, price: -110 };
    expect(compareOver(better, worse)).toBeGreaterThan(0);
    expect(compareUnder(better, worse)).toBeGreaterThan(0);
  });

  it('compareMoneyline: higher decimal payout; +100 and -100 tie', () => {
    expect(compareMoneyline(150, 145)).toBeGreaterThan(0);
    expect(compareMoneyline(-110, -105)).toBeLessThan(0);
    expect(compareMoneyline(100, -100)).toBe(0);
    // +120 → 2.2 beats -150 → 1.667
    expect(compareMoneyline(120, -150)).toBeGreaterThan(0);
  });
});

describe('sportsbookLeaders', () => {
  it('returns a set for every line key', () => {
    const leaders = sportsbookLeaders([]);
    expect(Object.keys(leaders).sort()).toEqual([...LINE_KEYS].sort());
    for (const key of LINE_KEYS) expect(leaders[key].size).toBe(0);
  });

  it('ranks the point before the price on spreads', () => {
    const leaders = sportsbookLeaders([
      // away +3.5 at a worse price still beats +3 at a better one
      book('alpha', { awaySpread: { point: 3.5, price: -120 }, homeSpread: { point: -3.5, price: 100 } }),
      book('beta', { awaySpread: { point: 3, price: 105 }, homeSpread: { point: -3, price: -125 } }),
    ]);
    expect([...leaders.away_spread]).toEqual(['alpha']);
    // home: -3 (give 3) beats -3.5 (give 3.5)
    expect([...leaders.home_spread]).toEqual(['beta']);
  });

  it('flags both books tied on the best spread, not the worse one', () => {
    const leaders = sportsbookLeaders([
      book('alpha', { awaySpread: { point: 3.5, price: -110 } }),
      book('beta', { awaySpread: { point: 3.5, price: -110 } }),
      book('gamma', { awaySpread: { point: 3, price: -110 } }),
    ]);
    expect([...leaders.away_spread].sort()).toEqual(['alpha', 'beta']);
  });

  it('breaks an equal spread by payout', () => {
    const leaders = sportsbookLeaders([
      book('alpha', { awaySpread: { point: 3.5, price: -110 } }),
      book('beta', { awaySpread: { point: 3.5, price: -105 } }),
    ]);
    expect([...leaders.away_spread]).toEqual(['beta']);
  });

  it('favours the lower total for the over and the higher total for the under', () => {
    const leaders = sportsbookLeaders([
      book('alpha', { totalOver: { point: 220.5, price: -110 }, totalUnder: { point: 220.5, price: -110 } }),
      book('beta', { totalOver: { point: 221.5, price: 100 }, totalUnder: { point: 221.5, price: -120 } }),
    ]);
    expect([...leaders.total_over]).toEqual(['alpha']);
    expect([...leaders.total_under]).toEqual(['beta']);
  });

  it('picks the higher moneyline payout on each side, ties all flagged', () => {
    const leaders = sportsbookLeaders([
      book('alpha', { awayMoneyline: 150, homeMoneyline: -180 }),
      book('beta', { awayMoneyline: 145, homeMoneyline: -170 }),
      book('gamma', { awayMoneyline: 150, homeMoneyline: -175 }),
    ]);
    expect([...leaders.away_moneyline].sort()).toEqual(['alpha', 'gamma']);
    expect([...leaders.home_moneyline]).toEqual(['beta']);
  });

  it("compares an exchange's exact after-fee price, not the integer odds it is shown as", () => {
    // An 18¢ Kalshi ask after its fee is 0.1904 a contract: +425.21, shown "+425" like bet365's +425.
    // A 25¢ ask is 0.2632: +279.94, shown "+280", and worse than bet365's +280.
    const kalshi = {
      awayMoneyline: probabilityToAmerican(afterFeePrice('kalshi', 'sports', 0.18)),
      drawMoneyline: probabilityToAmerican(afterFeePrice('kalshi', 'sports', 0.25)),
    };
    expect([formatAmerican(kalshi.awayMoneyline), formatAmerican(kalshi.drawMoneyline)]).toEqual(['+425', '+280']);
    const leaders = sportsbookLeaders([
      book('kalshi', kalshi),
      book('bet365', { awayMoneyline: 425, drawMoneyline: 280 }),
    ]);
    expect([...leaders.away_moneyline]).toEqual(['kalshi']);
    expect([...leaders.draw_moneyline]).toEqual(['bet365']);
  });

  it('judged on the figures displayed: every book showing the best figure is flagged, in each format', () => {
    const kalshi = {
      awayMoneyline: probabilityToAmerican(afterFeePrice('kalshi', 'sports', 0.18)),
      drawMoneyline: probabilityToAmerican(afterFeePrice('kalshi', 'sports', 0.25)),
    };
    const books = [book('kalshi', kalshi), book('bet365', { awayMoneyline: 425, drawMoneyline: 280 })];
    for (const format of ['american', 'decimal', 'fractional'] as const) {
      const leaders = sportsbookLeaders(books, format);
      expect([...leaders.away_moneyline].sort(), format).toEqual(['bet365', 'kalshi']);
      expect([...leaders.draw_moneyline].sort(), format).toEqual(['bet365', 'kalshi']);
    }
    // Three books at +105, one of them an exchange at +105.3 after its fee: three badges, as the visitor sees three +105.
    const three = [
      book('a', { homeMoneyline: 105 }),
      book('b', { homeMoneyline: 105.3 }),
      book('c', { homeMoneyline: 105 }),
      book('d', { homeMoneyline: 104 }),
    ];
    expect([...sportsbookLeaders(three, 'american').home_moneyline].sort()).toEqual(['a', 'b', 'c']);
    // A better figure still wins alone: decimal 2.06 against 2.05.
    expect([...sportsbookLeaders([...three, book('e', { homeMoneyline: 106 })], 'decimal').home_moneyline]).toEqual([
      'e',
    ]);
    // Points are compared as shown too: float noise in a point is no better line.
    const points = sportsbookLeaders(
      [
        book('a', { homeSpread: { point: 3.5, price: -110 } }),
        book('b', { homeSpread: { point: 3.5000000001, price: -110 } }),
      ],
      'american',
    );
    expect([...points.home_spread].sort()).toEqual(['a', 'b']);
  });

  it('leaves a book out of keys it does not offer', () => {
    const leaders = sportsbookLeaders([
      // alpha offers only moneylines; its absence from spreads must not win or block anything
      book('alpha', { awayMoneyline: 200, homeMoneyline: -250 }),
      book('beta', { awaySpread: { point: 6.5, price: -110 }, awayMoneyline: 190 }),
    ]);
    expect([...leaders.away_spread]).toEqual(['beta']);
    expect(leaders.home_spread.size).toBe(0);
    expect(leaders.total_over.size).toBe(0);
    expect(leaders.total_under.size).toBe(0);
    expect([...leaders.away_moneyline]).toEqual(['alpha']);
    expect([...leaders.home_moneyline]).toEqual(['alpha']);
  });
});
