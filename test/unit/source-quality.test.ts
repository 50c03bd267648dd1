/**
 * Pure parts of the real-source path: the quality gate's checks, odds-provider pacing, named
 * outcomes mapped by the catalog, Protocol-V2 position ids, and the runtime match guard.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogEvents, indexMarkets } from '../../src/catalog/events/build.js';
import { parseEventCatalog } from '../../src/catalog/events/load.js';
import { matchGuard } from '../../src/catalog/events/match-guard.js';
import type { EventsData, FxData, LeagueData, VenueMarket } from '../../src/model/index.js';
import { pacedIntervalMs } from '../../src/sources/odds-api/pacing.js';
import { normalizeGammaEvents } from '../../src/sources/polymarket/normalize.js';
import { checkQuality } from '../../src/sources/quality/gate.js';
import { screenItems } from '../../src/sources/quality/screen.js';
import { DEFAULT_QUALITY } from '../../src/sources/quality/options.js';

const now = new Date('2026-03-01T12:00:00.000Z');
const quote = (operatorId: string, yesPrice: number) => ({
  operatorId,
  yesPrice,
  volume24hUsd: 1,
  marketUrl: 'https://example.com/m',
});
const event = (
  slug: string,
  outcomes: Array<[string, Array<[string, number]>]>,
  closesAt = '2026-12-31T00:00:00.000Z',
) => ({
  slug,
  question: `${slug}?`,
  category: 'politics' as const,
  closesAt,
  outcomes: outcomes.map(([name, qs]) => ({ name, quotes: qs.map(([op, p]) => quote(op, p)) })),
});

describe('quality gate: events', () => {
  const prev: EventsData = {
    events: [
      event('a', [
        [
          'Yes',
          [
            ['kalshi', 0.4],
            ['polymarket', 0.41],
          ],
        ],
        [
          'No',
          [
            ['kalshi', 0.62],
            ['polymarket', 0.6],
          ],
        ],
      ]),
      event('b', [
        ['Before April', [['kalshi', 0.2]]],
        ['Before 2027', [['kalshi', 0.5]]],
      ]),
      event('c', [['Yes', [['polymarket', 0.3]]]]),
      event('closed', [['Yes', [['polymarket', 0.3]]]], '2026-02-01T00:00:00.000Z'),
    ],
  };

  it('passes the same data, and an event that closed since going away', () => {
    expect(checkQuality('events', prev, prev, now)).toEqual([]);
    expect(checkQuality('events', prev, { events: prev.events.slice(0, 3) }, now)).toEqual([]);
  });

  it('fails a venue that vanished, and losses over the configured share', () => {
    const noKalshi = {
      events: prev.events
        .map((e) => ({
          ...e,
          outcomes: e.outcomes
            .map((o) => ({ ...o, quotes: o.quotes.filter((q) => q.operatorId !== 'kalshi') }))
            .filter((o) => o.quotes.length > 0),
        }))
        .filter((e) => e.outcomes.length > 0),
    };
    // Every outcome keeps a Polymarket quote but one: only the vanished venue is a violation.
    expect(checkQuality('events', prev, noKalshi, now)).toEqual([
      'venue kalshi vanished (quoted 4 outcomes, now none)',
    ]);
    expect(checkQuality('events', prev, { events: [prev.events[2]!] }, now)).toEqual([
      '2 of 3 open events lost (more than 50 %)',
      '4 of 5 outcomes lost (more than 50 %)',
      'venue kalshi vanished (quoted 4 outcomes, now none)',
      '2 of 3 polymarket quotes lost (more than 50 %)',
    ]);
    expect(
      checkQuality('events', prev, { events: [prev.events[2]!] }, now, { ...DEFAULT_QUALITY, maxLossShare: 0.9 }),
    ).toEqual(['venue kalshi vanished (quoted 4 outcomes, now none)']);
  });

  it('drops Yes/No asks summing far below or above 1, but not two rungs of a ladder', () => {
    const cheap = {
      events: [
        event('a', [
          [
            'Yes',
            [
              ['kalshi', 0.2],
              ['polymarket', 0.41],
            ],
          ],
          [
            'No',
            [
              ['kalshi', 0.3],
              ['polymarket', 0.6],
            ],
          ],
        ]),
        prev.events[1]!,
        prev.events[2]!,
      ],
    };
    const r = screenItems('events', undefined, cheap, now);
    expect(r.dropped).toEqual([
      { id: 'a/kalshi', reason: `asks 0.2 + 0.3 sum below ${DEFAULT_QUALITY.minAskSum}`, class: 'inconsistent' },
    ]);
    expect(r.data.events[0]!.outcomes.map((o) => o.quotes.map((q) => q.operatorId))).toEqual([
      ['polymarket'],
      ['polymarket'],
    ]);
    expect(r.data.events.slice(1)).toEqual(cheap.events.slice(1));
    const dear = {
      events: [
        event('a', [
          ['Yes', [['kalshi', 0.8]]],
          ['No', [['kalshi', 0.75]]],
        ]),
      ],
    };
    expect(screenItems('events', undefined, dear, now).dropped).toEqual([
      { id: 'a/kalshi', reason: `asks 0.8 + 0.75 sum above ${DEFAULT_QUALITY.maxAskSum}`, class: 'inconsistent' },
    ]);
  });
});

describe('quality gate: sportsbook and FX', () => {
  const book = {
    operatorId: 'fanduel',
    lastUpdate: now.toISOString(),
    homeSpread: { point: -4.5, price: -110 },
    awaySpread: { point: 4.5, price: -110 },
    totalOver: { point: 220.5, price: -110 },
    totalUnder: { point: 220.5, price: -110 },
  };
  const league = (books: object[], ids = ['g1', 'g2']): LeagueData =>
    // The same two teams two days apart: two games, not one listed twice.
    ({
      league: 'NBA',
      teams: [
        { code: 'AAA', name: 'A', aliases: [] },
        { code: 'BBB', name: 'B', aliases: [] },
      ],
      finished: [],
      upcoming: ids.map((id, i) => ({
        id,
        scheduledTime: new Date(Date.parse('2026-03-02T00:00:00.000Z') + i * 2 * 86_400_000).toISOString(),
        homeCode: 'AAA',
        awayCode: 'BBB',
        books,
      })),
    }) as LeagueData;

  it('drops contradictory lines within one book, keeping the rest of it', () => {
    expect(screenItems('sportsbook', undefined, league([book]), now)).toEqual({ data: league([book]), dropped: [] });
    const spreads = screenItems(
      'sportsbook',
      undefined,
      league([{ ...book, awaySpread: { point: -4.5, price: -110 } }], ['g1']),
      now,
    );
    expect(spreads.dropped).toEqual([
      { id: 'g1/fanduel/spreads', reason: 'spreads -4.5 / -4.5 not opposite', class: 'inconsistent' },
    ]);
    expect(Object.keys(spreads.data.upcoming[0]!.books[0]!)).toEqual([
      'operatorId',
      'lastUpdate',
      'totalOver',
      'totalUnder',
    ]);
    const totals = screenItems(
      'sportsbook',
      undefined,
      league([{ ...book, totalUnder: { point: 221.5, price: -110 } }], ['g1']),
      now,
    );
    expect(totals.dropped).toEqual([
      { id: 'g1/fanduel/totals', reason: 'over 220.5 and under 221.5 at different totals', class: 'inconsistent' },
    ]);
  });

  it('fails losing most upcoming games or operators', () => {
    expect(checkQuality('sportsbook', league([book], ['g1', 'g2', 'g3']), league([book], ['g1']), now)).toEqual([
      '2 of 3 upcoming games lost (more than 50 %)',
    ]);
    expect(checkQuality('sportsbook', league([book]), league([]), now)).toEqual([
      '1 of 1 operators lost (more than 50 %)',
      'operator fanduel vanished (quoted 8 lines on games still listed, now none)',
    ]);
  });

  it('fails an operator vanishing from the games still listed, or losing most of its lines there', () => {
    const other = { ...book, operatorId: 'draftkings' };
    const kalshi = { operatorId: 'kalshi', lastUpdate: now.toISOString(), homeMoneyline: -120, awayMoneyline: 110 };
    const before = league([book, other, kalshi], ['g1', 'g2', 'g3']);
    // One operator of three gone: under the operators' 50 %, but the same games are still listed.
    expect(checkQuality('sportsbook', before, league([book, other], ['g1', 'g2', 'g3']), now)).toEqual([
      'operator kalshi vanished (quoted 6 lines on games still listed, now none)',
    ]);
    // Spreads and totals gone from a response (only moneylines left): 8 of 12 lines over two games.
    const full = { ...book, homeMoneyline: -150, awayMoneyline: 130 };
    const moneylinesOnly = {
      operatorId: 'fanduel',
      lastUpdate: now.toISOString(),
      homeMoneyline: -150,
      awayMoneyline: 130,
    };
    expect(checkQuality('sportsbook', league([full]), league([moneylinesOnly]), now)).toEqual([
      '8 of 12 fanduel lines lost (more than 50 %)',
    ]);
    // Two of three games without their bookmakers (dropped as malformed): 8 of 12 lines each.
    const thin = league([book, other], ['g1', 'g2', 'g3']);
    for (const m of thin.upcoming.slice(1)) m.books = [];
    expect(checkQuality('sportsbook', league([book, other], ['g1', 'g2', 'g3']), thin, now)).toEqual([
      '8 of 12 fanduel lines lost (more than 50 %)',
      '8 of 12 draftkings lines lost (more than 50 %)',
    ]);
    // A book pulling one game of three, or games that started since, passes.
    const oneGame = league([book, other], ['g1', 'g2', 'g3']);
    oneGame.upcoming[2]!.books = [other];
    expect(checkQuality('sportsbook', league([book, other], ['g1', 'g2', 'g3']), oneGame, now)).toEqual([]);
    const started = {
      ...league([book, other, kalshi], ['g0']).upcoming[0]!,
      scheduledTime: '2026-03-01T11:00:00.000Z',
    };
    expect(checkQuality('sportsbook', { ...before, upcoming: [started, ...before.upcoming] }, before, now)).toEqual([]);
  });

  it('fails a stale fixing, a jump beyond the daily bound and a lost currency', () => {
    const fx: FxData = { asOfDate: '2026-02-26', rates: { USD: 1, EUR: 0.92, GBP: 0.79 } };
    expect(checkQuality('fx', fx, fx, now)).toEqual([]);
    expect(checkQuality('fx', fx, { ...fx, asOfDate: '2026-02-20' }, now)).toEqual([
      'fixing of 2026-02-20 is older than 5 days',
    ]);
    // One business day later: 5 %.
    expect(checkQuality('fx', fx, { asOfDate: '2026-02-27', rates: { USD: 1, EUR: 0.98 } }, now)).toEqual([
      'EUR moved 6.5 % (0.92 → 0.98; bound 5 %)',
      'currencies lost: GBP',
    ]);
    // Four business days after the last good fixing the same move is within 5 % x 2.
    expect(
      checkQuality(
        'fx',
        { ...fx, asOfDate: '2026-02-23' },
        { asOfDate: '2026-02-27', rates: { USD: 1, EUR: 0.98, GBP: 0.79 } },
        now,
      ),
    ).toEqual([]);
  });

  it('fails a fixing whose rates all moved by one factor (the USD row), not a real dollar move', () => {
    const codes = ['EUR', 'GBP', 'JPY', 'CHF', 'HKD', 'CNY', 'SEK', 'NOK', 'DKK', 'CAD'];
    const prev: FxData = {
      asOfDate: '2026-02-26',
      rates: { USD: 1, ...Object.fromEntries(codes.map((c, i) => [c, 1 + i / 10])) },
    };
    const scaled = (f: (code: string) => number): FxData => ({
      asOfDate: '2026-02-27',
      rates: { USD: 1, ...Object.fromEntries(codes.map((c) => [c, prev.rates[c]! * f(c)])) },
    });
    // A USD row 3 % off: every rate 1/1.03 of what it was, under the per-rate bound.
    expect(
      checkQuality(
        'fx',
        prev,
        scaled(() => 1 / 1.03),
        now,
      ),
    ).toEqual([
      'every rate moved by one factor (x0.9709 per USD, 10 of 10 currencies within 0.5 % of it): the USD row is suspect',
    ]);
    // The dollar really strengthening 2 %: the pegged HKD and the managed CNY stay, the rest spread out.
    const real: Record<string, number> = {
      EUR: 0.98,
      GBP: 0.985,
      JPY: 0.99,
      CHF: 0.978,
      HKD: 1,
      CNY: 0.998,
      SEK: 0.975,
      NOK: 0.972,
      DKK: 0.98,
      CAD: 0.99,
    };
    expect(
      checkQuality(
        'fx',
        prev,
        scaled((c) => real[c]!),
        now,
      ),
    ).toEqual([]);
  });
});

describe('odds-provider pacing', () => {
  it('spreads what is left evenly over what is left of the month', () => {
    // 10 days left, 4 leagues, 3 credits a call, 1200 credits left: 400 calls, one per league every 2.4 h.
    const p = { now: new Date('2026-03-22T00:00:00.000Z'), leagues: 4, defaultCost: 3 };
    expect(pacedIntervalMs({ ...p, quota: { remaining: 1200, last: 3 } })).toBe(Math.ceil((10 * 86_400_000 * 4) / 400));
    // Our own budget is lower than the plan's: 20000 - 19400 used = 600 left, 200 calls.
    expect(pacedIntervalMs({ ...p, quota: { remaining: 80_000, used: 19_400, last: 3 }, monthlyCredits: 20_000 })).toBe(
      Math.ceil((10 * 86_400_000 * 4) / 200),
    );
    // Nothing left: wait for the month to turn.
    expect(pacedIntervalMs({ ...p, quota: { remaining: 2, last: 3 } })).toBe(10 * 86_400_000);
    expect(pacedIntervalMs({ ...p, quota: {} })).toBe(0);
    // None at all: the provider's block governs, not the pacing.
    expect(pacedIntervalMs({ ...p, quota: { remaining: 0, last: 3 } })).toBe(0);
  });
});

describe('named outcomes, position ids and the match guard', () => {
  const gamma = (market: Record<string, unknown>) =>
    normalizeGammaEvents([
      {
        id: 1,
        slug: 'lakers-celtics',
        title: 'Lakers vs. Celtics',
        markets: [
          {
            id: 2,
            slug: 'lakers-celtics',
            question: 'Lakers vs. Celtics',
            conditionId: `0x${'1'.repeat(64)}`,
            active: true,
            closed: false,
            bestBid: 0.44,
            bestAsk: 0.46,
            ...market,
          },
        ],
      },
    ]).markets;
  const catalog = (outcome?: string) =>
    parseEventCatalog([
      {
        slug: 'lakers-celtics',
        question: 'Lakers vs. Celtics: who wins?',
        category: 'sports',
        closesAt: '2026-12-31T00:00:00.000Z',
        reviewed: { by: 't', on: '2026-03-01' },
        outcomes: [
          {
            name: 'Celtics',
            refs: [
              {
                operator: 'polymarket',
                eventSlug: 'lakers-celtics',
                marketSlug: 'lakers-celtics',
                ...(outcome ? { outcome } : {}),
              },
            ],
          },
        ],
      },
    ]);

  it('prices a named outcome by the catalog label, never by position', () => {
    const listed = gamma({ outcomes: '["Lakers","Celtics"]', clobTokenIds: '["t-lakers","t-celtics"]' });
    // Celtics is the second outcome: its ask is 1 - the first outcome's bid.
    expect(
      buildCatalogEvents(catalog('Celtics'), indexMarkets(listed)).data.events[0]!.outcomes[0]!.quotes[0]!.yesPrice,
    ).toBe(0.56);
    // The venue swaps the order: the label still finds the Celtics side.
    const swapped = gamma({ outcomes: '["Celtics","Lakers"]', bestBid: 0.54, bestAsk: 0.56 });
    expect(
      buildCatalogEvents(catalog('Celtics'), indexMarkets(swapped)).data.events[0]!.outcomes[0]!.quotes[0]!.yesPrice,
    ).toBe(0.56);
    // Without a reviewed label, a named-outcome market is not priced at all.
    expect(buildCatalogEvents(catalog(), indexMarkets(listed)).skipped).toContainEqual(
      expect.objectContaining({ reason: 'named outcomes Lakers/Celtics need a reviewed outcome label' }),
    );
  });

  it('uses Protocol-V2 positionIds where present', () => {
    const [m] = gamma({
      outcomes: '["Yes","No"]',
      clobTokenIds: '["old-yes","old-no"]',
      positionIds: ['pos-yes', 'pos-no'],
    });
    expect(m!.tokenIds).toEqual({ yes: 'pos-yes', no: 'pos-no' });
  });

  it('flags a re-listed conditionId and a question that turned around or changed its number', () => {
    const m: VenueMarket = {
      venue: 'polymarket',
      id: 'm',
      eventId: 'e',
      title: 'Will X win at least 6 seats?',
      question: 'Will X win at least 6 seats?',
      conditionId: `0x${'1'.repeat(64)}`,
      open: true,
      volume24hUsd: 0,
      openInterestUsd: null,
      liquidityUsd: null,
      url: 'https://example.com/m',
    };
    const ref = {
      operator: 'polymarket' as const,
      eventSlug: 'e',
      marketSlug: 'm',
      conditionId: `0x${'1'.repeat(64)}`,
      title: 'Will X win at least 6 seats?',
      invert: false,
    };
    expect(matchGuard(ref, m)).toBeUndefined();
    expect(matchGuard(ref, { ...m, conditionId: `0x${'2'.repeat(64)}` })).toMatch(/re-listed market/);
    expect(matchGuard(ref, { ...m, question: 'Will X not win at least 6 seats?' })).toMatch(/question inverted/);
    expect(matchGuard(ref, { ...m, question: 'Will X win at least 7 seats?' })).toMatch(
      /numbers changed since review \(6 → 7\)/,
    );
    // The opposite direction or party, the matcher's contrasts, is another contract too.
    expect(matchGuard(ref, { ...m, question: 'Will X win at most 6 seats?' })).toMatch(
      /question changed since review \(direction: up vs down\)/,
    );
    const party = { ...ref, title: 'Will the Democrats win at least 6 seats?' };
    expect(matchGuard(party, { ...m, question: 'Will the Democrats win at least 6 seats?' })).toBeUndefined();
    expect(matchGuard(party, { ...m, question: 'Will the Republicans win at least 6 seats?' })).toMatch(
      /party: Democratic vs Republican/,
    );
  });
});
