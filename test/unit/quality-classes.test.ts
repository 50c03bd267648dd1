/**
 * The quality gate's item classes on their own (docs/sources.md): duplicates, units, moneyline
 * contradictions, jumps held then accepted, lost lines carried until their game starts, and
 * per-item isolation at the model.
 */
import { describe, expect, it } from 'vitest';
import { americanToProbability } from '../../src/domain/odds.js';
import type { Dropped } from '../../src/sources/quality/dropped.js';
import type { BookOdds, EventsData, LeagueData, VenueMarket } from '../../src/model/index.js';
import { figureField, textField } from '../../src/sources/quality/fields.js';
import { FIGURE_HOLD_MS, holdFigureJumps } from '../../src/sources/quality/figure-jumps.js';
import { lifecycleFault } from '../../src/sources/quality/lifecycle.js';
import { withoutBrokenBooks, withoutRelabelled } from '../../src/sources/quality/markets.js';
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
    expect(r.dropped.map((d) => [d.id, d.class])).toEqual([
      ['A', 'duplicate'],
      ['B', 'duplicate'],
    ]);
    expect(r.dropped[1]!.reason).toMatch(/different contents: dropped every copy/);
  });
});

describe('units', () => {
  it('names a price field that left [0, 1], and passes dollars, absent and empty prices', () => {
    expect(
      priceUnitChange({ yes_ask_dollars: '27.0000', no_ask_dollars: '0.74' }, ['no_ask_dollars', 'yes_ask_dollars']),
    ).toBe('yes_ask_dollars 27.0000 outside [0, 1]: price unit changed');
    expect(
      priceUnitChange({ bestAsk: 0.56, bestBid: null, lastTradePrice: '' }, ['bestAsk', 'bestBid', 'lastTradePrice']),
    ).toBeUndefined();
  });
});

const book = {
  operatorId: 'fanduel',
  lastUpdate: now.toISOString(),
  homeMoneyline: -150,
  awayMoneyline: 130,
  homeSpread: { point: -3.5, price: -110 },
  awaySpread: { point: 3.5, price: -110 },
};
const league = (books: object[], scheduledTime = '2026-03-02T00:00:00.000Z'): LeagueData =>
  ({
    league: 'NBA',
    teams: [
      { code: 'AAA', name: 'A', aliases: [] },
      { code: 'BBB', name: 'B', aliases: [] },
    ],
    finished: [],
    upcoming: [{ id: 'g1', scheduledTime, homeCode: 'AAA', awayCode: 'BBB', books }],
  }) as LeagueData;
const booksOf = (d: LeagueData) => d.upcoming[0]!.books;

describe('moneylines', () => {
  it('drops moneylines that favour both sides (+400 on each) and keeps the spreads', () => {
    const r = screenItems('sportsbook', undefined, league([{ ...book, homeMoneyline: 400, awayMoneyline: 400 }]), now);
    const sum = 2 * americanToProbability(400);
    expect(r.dropped).toEqual([
      {
        id: 'g1/fanduel/h2h',
        reason: `moneylines imply ${Math.round(sum * 100)} % in all (outside 97-130 %)`,
        class: 'inconsistent',
      },
    ]);
    expect(booksOf(r.data)[0]).not.toHaveProperty('homeMoneyline');
    expect(booksOf(r.data)[0]!.homeSpread).toEqual(book.homeSpread);
  });

  it('drops moneylines and spreads when the moneyline favourite receives points', () => {
    const r = screenItems(
      'sportsbook',
      undefined,
      league([
        {
          ...book,
          homeSpread: { point: 3.5, price: -110 },
          awaySpread: { point: -3.5, price: -110 },
          homeMoneyline: -300,
          awayMoneyline: 250,
        },
      ]),
      now,
    );
    expect(r.dropped.map((d) => [d.id, d.class])).toEqual([['g1/fanduel/h2h+spreads', 'inconsistent']]);
    expect(Object.keys(booksOf(r.data)[0]!)).toEqual(['operatorId', 'lastUpdate']);
  });
});

describe('jumps', () => {
  const ev = (yesPrice: number, volume24hUsd: number): EventsData => ({
    events: [
      {
        slug: 'a',
        question: 'a?',
        category: 'politics',
        closesAt: '2026-12-31T00:00:00.000Z',
        outcomes: [
          {
            name: 'Yes',
            quotes: [{ operatorId: 'kalshi', yesPrice, volume24hUsd, marketUrl: 'https://kalshi.com/m' }],
          },
        ],
      },
    ],
  });

  it('holds a price that jumps without volume, until the jump has lasted jumpHoldMs; accepts one with volume', () => {
    const first = screenItems('events', ev(0.27, 100), ev(0.9, 100), now);
    expect(first.data).toEqual(ev(0.27, 100));
    expect(first.dropped).toEqual([
      {
        id: 'a/Yes/kalshi',
        reason: 'price 0.27 → 0.9 without new volume: held at 0.27',
        class: 'held',
        since: now.toISOString(),
      },
    ]);
    // Still held a little later (the start is carried), accepted once the hold has lasted.
    const again = screenItems(
      'events',
      ev(0.27, 100),
      ev(0.9, 100),
      later(DEFAULT_QUALITY.jumpHoldMs - 1),
      first.dropped,
    );
    expect(again.dropped).toEqual(first.dropped);
    expect(
      screenItems('events', ev(0.27, 100), ev(0.9, 100), later(DEFAULT_QUALITY.jumpHoldMs), first.dropped),
    ).toEqual({ data: ev(0.9, 100), dropped: [] });
    expect(screenItems('events', ev(0.27, 100), ev(0.9, 5000), now)).toEqual({ data: ev(0.9, 5000), dropped: [] });
  });

  it('holds a moneyline whose implied probability jumps (the favourite staying the favourite)', () => {
    const { homeSpread: _h, awaySpread: _a, ...h2h } = book;
    const r = screenItems(
      'sportsbook',
      league([h2h]),
      league([{ ...h2h, homeMoneyline: -1500, awayMoneyline: 900 }]),
      now,
    );
    expect(r.dropped).toEqual([
      {
        id: 'g1/fanduel/h2h',
        reason: 'moneylines -150/130 → -1500/900: held at -150/130',
        class: 'held',
        since: now.toISOString(),
      },
    ]);
    expect(booksOf(r.data)[0]).toMatchObject({ homeMoneyline: -150, awayMoneyline: 130 });
  });
});

describe('lost lines', () => {
  it('lists every line gone from a game not yet started, keeps listing it while missing, forgets it once the game starts', () => {
    const { awaySpread: _, ...thin } = book;
    const r = screenItems('sportsbook', league([book]), league([thin]), now);
    expect(r.dropped).toEqual([
      {
        id: 'g1/fanduel/awaySpread',
        reason: 'quoted in the last good snapshot, absent now',
        class: 'lost',
        until: '2026-03-02T00:00:00.000Z',
      },
    ]);
    // The next refresh compares with a snapshot that no longer has the line: the carried list keeps it.
    expect(
      screenItems('sportsbook', league([thin]), league([thin]), later(60_000), r.dropped as Dropped[]).dropped,
    ).toEqual(r.dropped);
    expect(screenItems('sportsbook', league([thin]), league([book]), later(60_000), r.dropped).dropped).toEqual([]);
    expect(
      screenItems('sportsbook', league([thin]), league([thin]), new Date('2026-03-02T00:00:00.000Z'), r.dropped)
        .dropped,
    ).toEqual([]);
  });
});

describe('per-item isolation', () => {
  it('drops a quote with a negative volume and a book line that is not odds, and keeps the rest', () => {
    const dropped: Dropped[] = [];
    const events = {
      events: [
        {
          slug: 'a',
          question: 'a?',
          category: 'politics',
          closesAt: '2026-12-31T00:00:00.000Z',
          outcomes: [
            {
              name: 'Yes',
              quotes: [
                { operatorId: 'kalshi', yesPrice: 0.4, volume24hUsd: -5, marketUrl: 'https://kalshi.com/m' },
                { operatorId: 'polymarket', yesPrice: 0.41, volume24hUsd: 5, marketUrl: 'https://polymarket.com/m' },
              ],
            },
          ],
        },
      ],
    } as EventsData;
    const out = isolateItems('events', events, dropped);
    expect(out.events[0]!.outcomes[0]!.quotes.map((q) => q.operatorId)).toEqual(['polymarket']);
    expect(dropped).toEqual([
      { id: 'a/Yes/kalshi', reason: expect.stringMatching(/^volume24hUsd: /), class: 'schema' },
    ]);
    const lines: Dropped[] = [];
    const l = isolateItems('sportsbook', league([{ ...book, homeMoneyline: 1.91 }]), lines);
    expect(booksOf(l)[0]).not.toHaveProperty('homeMoneyline');
    expect(lines.map((d) => [d.id, d.class])).toEqual([['g1/fanduel/homeMoneyline', 'schema']]);
  });
});

describe('invariants, each rule on its own (docs/sources.md)', () => {
  const books3 = (over: Partial<BookOdds> = {}) => [
    { ...book, operatorId: 'draftkings' },
    { ...book, operatorId: 'betmgm', homeMoneyline: -145, awayMoneyline: 125 },
    { ...book, ...over },
  ];

  it("consensus: a book far from the other books' median is withheld (the two honest books of three are not), one within the bound is not; two books are no consensus", () => {
    // (moneylines only: a book's own spread would contradict the flipped favourite first)
    const { homeSpread: _h, awaySpread: _a, ...h2hOnly } = book;
    const far = screenItems(
      'sportsbook',
      undefined,
      league([...books3().slice(0, 2), { ...h2hOnly, homeMoneyline: 150, awayMoneyline: -170 }]),
      now,
    );
    expect(far.dropped).toEqual([
      expect.objectContaining({
        id: 'g1/fanduel/h2h',
        class: 'outlier',
        reason: expect.stringMatching(
          /^outlier: no-vig home probability 0\.38\d* against the other books' median 0\.5\d+/,
        ),
      }),
    ]);
    expect(booksOf(far.data)[2]).not.toHaveProperty('homeMoneyline');
    expect(
      screenItems('sportsbook', undefined, league(books3({ homeMoneyline: -160, awayMoneyline: 140 })), now).dropped,
    ).toEqual([]);
    expect(
      screenItems(
        'sportsbook',
        undefined,
        league([books3()[0]!, { ...h2hOnly, homeMoneyline: 150, awayMoneyline: -170 }]),
        now,
      ).dropped,
    ).toEqual([]);
    const spread = screenItems(
      'sportsbook',
      undefined,
      league(books3({ homeSpread: { point: -9.5, price: -110 }, awaySpread: { point: 9.5, price: -110 } })),
      now,
    );
    expect(spread.dropped.map((d) => [d.id, d.class])).toEqual([['g1/fanduel/spreads', 'outlier']]);
  });

  it('ranges: a total or a spread no league game has is dropped', () => {
    const r = screenItems(
      'sportsbook',
      undefined,
      league([{ ...book, totalOver: { point: 2205, price: -110 }, totalUnder: { point: 2205, price: -110 } }]),
      now,
    );
    expect(r.dropped).toEqual([
      { id: 'g1/fanduel/totals', reason: "total 2205 outside the league's range 150-300", class: 'range' },
    ]);
  });

  it('identity: swapped sides keep the last good game until its start; the same game under two ids is kept once', () => {
    const prev = league([book]);
    const swapped = { ...prev, upcoming: [{ ...prev.upcoming[0]!, homeCode: 'BBB', awayCode: 'AAA' }] } as LeagueData;
    const r = screenItems('sportsbook', prev, swapped, now);
    expect(r.data.upcoming).toEqual(prev.upcoming);
    expect(r.dropped).toEqual([
      {
        id: 'g1',
        reason: 'home and away swapped (was B at A): last good version kept',
        class: 'identity',
        since: now.toISOString(),
      },
    ]);
    // Still refused later, with the time first seen.
    expect(screenItems('sportsbook', prev, swapped, later(3_600_000), r.dropped).dropped[0]!.since).toBe(
      now.toISOString(),
    );
    // Without memory (a first refresh), the copy with the freshest book is kept.
    const twice = {
      ...prev,
      upcoming: [
        { ...prev.upcoming[0]!, id: 'g0', books: [{ ...book, lastUpdate: later(-600_000).toISOString() }] },
        prev.upcoming[0]!,
      ],
    } as LeagueData;
    const once = screenItems('sportsbook', undefined, twice, now);
    expect(once.data.upcoming.map((m) => m.id)).toEqual(['g1']);
    expect(once.dropped).toEqual([
      expect.objectContaining({
        id: 'g0',
        class: 'duplicate',
        reason: expect.stringMatching(/kept g1, the one with the freshest book$/),
      }),
    ]);
  });

  it('ladders: an earlier deadline dearer than a later one drops both rungs of that venue', () => {
    const q = (yesPrice: number, yesBid?: number) => ({
      operatorId: 'kalshi',
      yesPrice,
      ...(yesBid ? { yesBid } : {}),
      volume24hUsd: 1,
      marketUrl: 'https://kalshi.com/m',
    });
    const ladder = (april: ReturnType<typeof q>, august: ReturnType<typeof q>): EventsData => ({
      events: [
        {
          slug: 'deal',
          question: 'When?',
          category: 'politics',
          closesAt: '2026-12-31T00:00:00.000Z',
          nested: true,
          outcomes: [
            { name: 'April', quotes: [april] },
            { name: 'August', quotes: [august] },
          ],
        },
      ],
    });
    expect(screenItems('events', undefined, ladder(q(0.2, 0.18), q(0.45, 0.41)), now).dropped).toEqual([]);
    expect(screenItems('events', undefined, ladder(q(0.45, 0.41), q(0.2, 0.18)), now).dropped).toEqual([
      {
        id: 'deal/kalshi',
        reason: 'ladder broken: "April" bid 0.41 above "August" ask 0.2 (an earlier deadline cannot be likelier)',
        class: 'inconsistent',
      },
    ]);
    // Without a bid, asks within a wide book's spread of each other pass.
    expect(screenItems('events', undefined, ladder(q(0.24), q(0.2)), now).dropped).toEqual([]);
  });

  it('fields and lifecycle: a malformed figure is unknown, a text that is no text is left out; a market past its close or settled is closed', () => {
    const faults: Dropped[] = [];
    expect([
      figureField('40,305.00', 'T', 'volume_24h_fp', faults),
      figureField('12.5', 'T', 'open_interest_fp', faults),
      figureField(undefined, 'T', 'x', faults),
    ]).toEqual([null, 12.5, undefined]);
    expect(textField({ a: 1 }, 'T', 'rules_primary', faults)).toBeUndefined();
    expect(faults.map((f) => [f.id, f.class])).toEqual([
      ['T/volume_24h_fp', 'field'],
      ['T/rules_primary', 'field'],
    ]);
    expect(lifecycleFault('T', 'active', '2026-03-01T11:00:00Z', undefined, now)).toMatchObject({ class: 'lifecycle' });
    expect(lifecycleFault('T', 'active', '2026-03-01T13:00:00Z', 'no', now)).toMatchObject({
      class: 'lifecycle',
      reason: 'status active but settled (result no): not shown',
    });
    expect(lifecycleFault('T', 'active', '2026-03-01T13:00:00Z', '', now)).toBeUndefined();
  });

  it('figure jumps: a volume beyond x4 (and $10,000) is held, then accepted after an hour; small markets swing freely', () => {
    const market = (volume24hUsd: number, openInterestUsd: number | null = null): VenueMarket => ({
      venue: 'kalshi',
      id: 'T',
      eventId: 'E',
      title: 't',
      open: true,
      volume24hUsd,
      openInterestUsd,
      liquidityUsd: null,
      url: 'https://kalshi.com/m',
    });
    const since = new Map<string, number>();
    const held = holdFigureJumps([market(100)], [market(50_000)], now, since);
    expect(held.markets[0]!.volume24hUsd).toBe(50_000);
    expect(held.dropped).toEqual([
      {
        id: 'kalshi:T/volume24hUsd',
        reason: '24 h volume 50000 → 100 in one refresh (beyond x4): held at 50000',
        class: 'held',
        since: now.toISOString(),
      },
    ]);
    expect(
      holdFigureJumps([market(100)], [market(50_000)], later(FIGURE_HOLD_MS), since).markets[0]!.volume24hUsd,
    ).toBe(100);
    expect(holdFigureJumps([market(9_000)], [market(100)], now, new Map()).dropped).toEqual([]);
    expect(
      holdFigureJumps([market(30_000, 5e6)], [market(20_000, 40_000)], now, new Map()).dropped.map((d) => d.id),
    ).toEqual(['kalshi:T/openInterestUsd']);
  });

  it('Kalshi books: a NO ask that does not mirror the YES bid is dropped; Gamma labels moved against their tokens are dropped', () => {
    const k = (p: Partial<VenueMarket>): VenueMarket => ({
      venue: 'kalshi',
      id: 'T',
      eventId: 'E',
      title: 't',
      open: true,
      volume24hUsd: 1,
      openInterestUsd: null,
      liquidityUsd: null,
      url: 'https://kalshi.com/m',
      yesBid: 0.25,
      yesAsk: 0.27,
      noBid: 0.73,
      noAsk: 0.75,
      ...p,
    });
    expect(withoutBrokenBooks([k({})], () => true).dropped).toEqual([]);
    expect(withoutBrokenBooks([k({ noAsk: 0.95 })], () => true).dropped).toEqual([
      {
        id: 'kalshi:T',
        reason: 'NO ask 0.95 does not mirror the YES bid 0.25 (1 - 0.25 = 0.75): one side is stale',
        class: 'inconsistent',
      },
    ]);
    const g = (yes: string, no: string): VenueMarket => ({ ...k({}), venue: 'polymarket', tokenIds: { yes, no } });
    expect(withoutRelabelled([g('a', 'b')], [g('a', 'b')]).dropped).toEqual([]);
    expect(withoutRelabelled([g('b', 'a')], [g('a', 'b')]).dropped.map((d) => d.class)).toEqual(['inconsistent']);
    // New tokens altogether are a re-listing, for the match guard.
    expect(withoutRelabelled([g('c', 'd')], [g('a', 'b')]).dropped).toEqual([]);
  });
});
