/**
 * The quality gate's item classes on their own (docs/sources.md): duplicates, units, moneyline
 * contradictions, jumps held then accepted, lost lines carried until their game starts, and
 * per-item isolation at the model.
 */
import { describe, expect, it } from 'vitest';
import { americanToProbability } from '../../src/domain/odds.js';
import type { Dropped } from '../../src/sources/quality/dropped.js';
import type { EventsData, LeagueData } from '../../src/model/index.js';
import { dedupe } from '../../src/sources/quality/duplicates.js';
import { isolateItems } from '../../src/sources/quality/isolate.js';
import { DEFAULT_QUALITY } from '../../src/sources/quality/options.js';
import { screenItems } from '../../src/sources/quality/screen.js';
import { priceUnitChange } from '../../src/sources/quality/units.js';

const now = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const id = (x: { id: string }) => x.id;

describe('duplicates', () => {
  it('keeps one of identical copies, drops every copy of differing ones, and reports both', () => {
    const a = { id: 'A', p: 1 };
    const r = dedupe([a, { ...a }, { id: 'B', p: 1 }, { id: 'B', p: 2 }, { id: 'C', p: 3 }], id);
    expect(r.kept).toEqual([a, { id: 'C', p: 3 }]);
    expect(r.dropped.map((d) => [d.id, d.class])).toEqual([['A', 'duplicate'], ['B', 'duplicate']]);
    expect(r.dropped[1]!.reason).toMatch(/different contents: dropped every copy/);
  });
});

describe('units', () => {
  it('names a price field that left [0, 1], and passes dollars, absent and empty prices', () => {
    expect(priceUnitChange({ yes_ask_dollars: '27.0000', no_ask_dollars: '0.74' }, ['no_ask_dollars', 'yes_ask_dollars'])).toBe('yes_ask_dollars 27.0000 outside [0, 1]: price unit changed');
    expect(priceUnitChange({ bestAsk: 0.56, bestBid: null, lastTradePrice: '' }, ['bestAsk', 'bestBid', 'lastTradePrice'])).toBeUndefined();
  });
});

const book = { operatorId: 'fanduel', lastUpdate: now.toISOString(), homeMoneyline: -150, awayMoneyline: 130, homeSpread: { point: -3.5, price: -110 }, awaySpread: { point: 3.5, price: -110 } };
const league = (books: object[], scheduledTime = '2026-03-02T00:00:00.000Z'): LeagueData =>
  ({ league: 'NBA', teams: [{ code: 'AAA', name: 'A', aliases: [] }, { code: 'BBB', name: 'B', aliases: [] }], finished: [], upcoming: [{ id: 'g1', scheduledTime, homeCode: 'AAA', awayCode: 'BBB', books }] }) as LeagueData;
const booksOf = (d: LeagueData) => d.upcoming[0]!.books;

describe('moneylines', () => {
  it('drops moneylines that favour both sides (+400 on each) and keeps the spreads', () => {
    const r = screenItems('sportsbook', undefined, league([{ ...book, homeMoneyline: 400, awayMoneyline: 400 }]), now);
    const sum = 2 * americanToProbability(400);
    expect(r.dropped).toEqual([{ id: 'g1/fanduel/h2h', reason: `moneylines imply ${Math.round(sum * 100)} % in all (outside 97-130 %)`, class: 'inconsistent' }]);
    expect(booksOf(r.data)[0]).not.toHaveProperty('homeMoneyline');
    expect(booksOf(r.data)[0]!.homeSpread).toEqual(book.homeSpread);
  });

  it('drops moneylines and spreads when the moneyline favourite receives points', () => {
    const r = screenItems('sportsbook', undefined, league([{ ...book, homeSpread: { point: 3.5, price: -110 }, awaySpread: { point: -3.5, price: -110 }, homeMoneyline: -300, awayMoneyline: 250 }]), now);
    expect(r.dropped.map((d) => [d.id, d.class])).toEqual([['g1/fanduel/h2h+spreads', 'inconsistent']]);
    expect(Object.keys(booksOf(r.data)[0]!)).toEqual(['operatorId', 'lastUpdate']);
  });
});

describe('jumps', () => {
  const ev = (yesPrice: number, volume24hUsd: number): EventsData => ({
    events: [{ slug: 'a', question: 'a?', category: 'politics', closesAt: '2026-12-31T00:00:00.000Z', outcomes: [{ name: 'Yes', quotes: [{ operatorId: 'kalshi', yesPrice, volume24hUsd, marketUrl: 'https://kalshi.com/m' }] }] }],
  });

  it('holds a price that jumps without volume, until the jump has lasted jumpHoldMs; accepts one with volume', () => {
    const first = screenItems('events', ev(0.27, 100), ev(0.9, 100), now);
    expect(first.data).toEqual(ev(0.27, 100));
    expect(first.dropped).toEqual([{ id: 'a/Yes/kalshi', reason: 'price 0.27 → 0.9 without new volume: held at 0.27', class: 'held', since: now.toISOString() }]);
    // Still held a little later (the start is carried), accepted once the hold has lasted.
    const again = screenItems('events', ev(0.27, 100), ev(0.9, 100), later(DEFAULT_QUALITY.jumpHoldMs - 1), first.dropped);
    expect(again.dropped).toEqual(first.dropped);
    expect(screenItems('events', ev(0.27, 100), ev(0.9, 100), later(DEFAULT_QUALITY.jumpHoldMs), first.dropped)).toEqual({ data: ev(0.9, 100), dropped: [] });
    expect(screenItems('events', ev(0.27, 100), ev(0.9, 5000), now)).toEqual({ data: ev(0.9, 5000), dropped: [] });
  });

  it('holds a moneyline whose implied probability jumps (the favourite staying the favourite)', () => {
    const { homeSpread: _h, awaySpread: _a, ...h2h } = book;
    const r = screenItems('sportsbook', league([h2h]), league([{ ...h2h, homeMoneyline: -1500, awayMoneyline: 900 }]), now);
    expect(r.dropped).toEqual([{ id: 'g1/fanduel/h2h', reason: 'moneylines -150/130 → -1500/900: held at -150/130', class: 'held', since: now.toISOString() }]);
    expect(booksOf(r.data)[0]).toMatchObject({ homeMoneyline: -150, awayMoneyline: 130 });
  });
});

describe('lost lines', () => {
  it('lists every line gone from a game not yet started, keeps listing it while missing, forgets it once the game starts', () => {
    const { awaySpread: _, ...thin } = book;
    const r = screenItems('sportsbook', league([book]), league([thin]), now);
    expect(r.dropped).toEqual([{ id: 'g1/fanduel/awaySpread', reason: 'quoted in the last good snapshot, absent now', class: 'lost', until: '2026-03-02T00:00:00.000Z' }]);
    // The next refresh compares with a snapshot that no longer has the line: the carried list keeps it.
    expect(screenItems('sportsbook', league([thin]), league([thin]), later(60_000), r.dropped as Dropped[]).dropped).toEqual(r.dropped);
    expect(screenItems('sportsbook', league([thin]), league([book]), later(60_000), r.dropped).dropped).toEqual([]);
    expect(screenItems('sportsbook', league([thin]), league([thin]), new Date('2026-03-02T00:00:00.000Z'), r.dropped).dropped).toEqual([]);
  });
});

describe('per-item isolation', () => {
  it('drops a quote with a negative volume and a book line that is not odds, and keeps the rest', () => {
    const dropped: Dropped[] = [];
    const events = {
      events: [
        { slug: 'a', question: 'a?', category: 'politics', closesAt: '2026-12-31T00:00:00.000Z', outcomes: [{ name: 'Yes', quotes: [{ operatorId: 'kalshi', yesPrice: 0.4, volume24hUsd: -5, marketUrl: 'https://kalshi.com/m' }, { operatorId: 'polymarket', yesPrice: 0.41, volume24hUsd: 5, marketUrl: 'https://polymarket.com/m' }] }] },
      ],
    } as EventsData;
    const out = isolateItems('events', events, dropped);
    expect(out.events[0]!.outcomes[0]!.quotes.map((q) => q.operatorId)).toEqual(['polymarket']);
    expect(dropped).toEqual([{ id: 'a/Yes/kalshi', reason: expect.stringMatching(/^volume24hUsd: /), class: 'schema' }]);
    const lines: Dropped[] = [];
    const l = isolateItems('sportsbook', league([{ ...book, homeMoneyline: 1.91 }]), lines);
    expect(booksOf(l)[0]).not.toHaveProperty('homeMoneyline');
    expect(lines.map((d) => [d.id, d.class])).toEqual([['g1/fanduel/homeMoneyline', 'schema']]);
  });
});
