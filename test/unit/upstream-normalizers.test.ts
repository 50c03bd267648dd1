/**
 * Normalizers against the recorded upstream responses, with numbers checked by hand from the files
 * (prices in cents, spreads in cents between venues, volume units).
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogEvents, indexMarkets } from '../../src/catalog/events/build.js';
import { loadEventCatalog, parseEventCatalog, CatalogError } from '../../src/catalog/events/load.js';
import { priceToCents } from '../../src/domain/contract-price.js';
import { ecbToFx } from '../../src/sources/ecb/parse.js';
import { addKalshiGameOdds, gameDateOf } from '../../src/sources/kalshi/games.js';
import { kalshiMarketUrl } from '../../src/catalog/kalshi-pages.js';
import { normalizeKalshiEvents, normalizeKalshiMarkets } from '../../src/sources/kalshi/normalize.js';
import { TeamResolver } from '../../src/sources/odds-api/mapping.js';
import { normalizeOdds, toAmerican } from '../../src/sources/odds-api/normalize.js';
import { normalizeGammaEvents, polymarketUrl } from '../../src/sources/polymarket/normalize.js';
import { catalogCategories, deriveMetrics } from '../../src/sources/combined/derived-metrics.js';
import { EventsData, LeagueData, type VenueMarket } from '../../src/model/index.js';
import { recorded } from '../support/upstream-replay.js';

const byId = (ms: VenueMarket[], id: string) => ms.find((m) => m.id === id)!;

describe('Kalshi normalizer (kalshi-events-nested.json)', () => {
  const { markets, dropped } = normalizeKalshiEvents(recorded().kalshiEvents);

  it('reads every market and the fixed-point dollar fields, never the integer cents', () => {
    expect(dropped).toEqual([]);
    expect(markets).toHaveLength(10);
    const apr = byId(markets, 'KXUSAIRANAGREEMENT-27-26APR');
    // yes_ask_dollars "0.1800", no_ask_dollars "0.8400", last_price_dollars "0.1600"
    expect(apr).toMatchObject({ open: true, yesAsk: 0.18, noAsk: 0.84, lastPrice: 0.16, outcomeLabel: 'Before April' });
    expect(priceToCents(apr.yesAsk!)).toBe(18);
    // volume_24h_fp "90806.00" contracts x $0.16 traded = $14,528.96; open_interest_fp 147531 x 0.16
    expect(apr.volume24hContracts).toBe(90806);
    expect(apr.volume24hUsd).toBe(14528.96);
    expect(apr.openInterestUsd).toBe(23604.96);
    expect(apr.url).toBe('https://kalshi.com/events/KXUSAIRANAGREEMENT-27');
    // 9380 contracts at $0.64
    expect(byId(markets, 'KXUSAIRANAGREEMENT-27').volume24hUsd).toBe(6003.2);
  });

  it('a finalized market is not open and has no live ask (yes_ask_dollars "1.0000" means no seller)', () => {
    const m = byId(markets, 'KXKHAMENEIOUT-AKHA-26MAR01');
    expect(m.open).toBe(false);
    expect(m.yesAsk).toBeUndefined();
    expect(m.noAsk).toBeUndefined();
    expect(m.rules).toContain('solely because they have died');
  });

  it("drops a malformed market and keeps the rest; a missing ask falls back to 1 - the other side's bid", () => {
    const all = recorded().kalshiMarkets;
    const pick = (t: string) => ({ ...all.find((m) => m.ticker === t)! });
    const broken = { ...pick('KXIRANDEMOCRACY-27MAR01-T6'), ticker: 'KXBROKEN-1', close_time: 'yesterday' };
    const noAsk = pick('KXUSAIRANAGREEMENT-27-26APR');
    delete noAsk.yes_ask_dollars; // a price field missing: YES ask = 1 - best NO bid (0.8200)
    const rest = [pick('KXUSAIRANAGREEMENT-27'), pick('KXRECOGPERSONIRAN-26')];
    const { markets: ms, dropped: bad } = normalizeKalshiMarkets([broken, noAsk, ...rest, 'not an object']);
    expect(ms.map((m) => m.id)).toEqual([
      'KXUSAIRANAGREEMENT-27-26APR',
      'KXUSAIRANAGREEMENT-27',
      'KXRECOGPERSONIRAN-26',
    ]);
    expect(bad.map((d) => d.id)).toEqual(['KXBROKEN-1', '#4']);
    expect(ms[0]!.yesAsk).toBe(0.18);
  });

  it('builds the documented web URL when the page slug is reviewed', () => {
    expect(kalshiMarketUrl('KXFED-26DEC', 'fed-decision')).toBe(
      'https://kalshi.com/markets/kxfed/fed-decision/kxfed-26dec',
    );
  });
});

describe('Polymarket normalizer (polymarket-gamma-events-2026.json)', () => {
  const { markets, dropped } = normalizeGammaEvents(recorded().gammaEvents.slice(0, 2));

  it('decodes the JSON-encoded strings and prices YES at bestAsk, NO at 1 - bestBid', () => {
    expect(dropped).toEqual([]);
    expect(markets).toHaveLength(4);
    const m7 = byId(markets, 'iran-x-israelus-conflict-ends-by-march-7');
    // bestAsk 0.09, bestBid 0.08 → NO ask 0.92; volume24hr 224487.948524 USDC
    expect(m7).toMatchObject({
      yesAsk: 0.09,
      noAsk: 0.92,
      volume24hUsd: 224487.95,
      outcomeLabel: 'March 7',
      open: true,
    });
    expect(m7.tokenIds?.yes).toBe('34607248775012434162023970679863902425653025984305214745980667340544918996830');
    expect(m7.url).toBe(
      'https://polymarket.com/event/iran-x-israelus-conflict-ends-by/iran-x-israelus-conflict-ends-by-march-7',
    );
    const kh = byId(markets, 'khamenei-out-as-supreme-leader-of-iran-by-february-28');
    // a one-market event links to the event page alone
    expect(kh.url).toBe('https://polymarket.com/event/khamenei-out-as-supreme-leader-of-iran-by-february-28');
    expect(kh).toMatchObject({
      yesAsk: 0.999,
      noAsk: 0.002,
      conditionId: '0xd4bbf7f6707c67beb736135ad32a41f6db41f8ae52d3ac4919650de9eeb94ed8',
    });
    expect(polymarketUrl('a-b', 'a-b')).toBe('https://polymarket.com/event/a-b');
  });

  it('drops a market whose encoded outcomes are not JSON, keeps its siblings; a missing bestAsk stays missing', () => {
    const ev = structuredClone(recorded().gammaEvents[1]!) as { markets: Record<string, unknown>[] };
    ev.markets[0]!.outcomes = '[Yes, No';
    delete ev.markets[1]!.bestAsk;
    const r = normalizeGammaEvents([ev]);
    expect(r.dropped.map((d) => d.id)).toEqual(['iran-x-israelus-conflict-ends-by-march-7']);
    expect(r.markets.map((m) => m.id)).toEqual([
      'iran-x-israelus-conflict-ends-by-march-15',
      'iran-x-israelus-conflict-ends-by-march-31',
    ]);
    expect(r.markets[0]!.yesAsk).toBeUndefined();
    expect(r.markets[0]!.noAsk).toBe(0.77);
  });
});

describe('event catalog', () => {
  const catalog = loadEventCatalog();

  it('validates the built-in catalog and refuses a broken one with every problem listed', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(5);
    const bad = [
      { ...catalog[0]!, slug: 'Bad Slug' },
      {
        ...catalog[1]!,
        outcomes: [
          {
            name: 'x',
            refs: [
              { operator: 'kalshi', ticker: 'A-1' },
              { operator: 'kalshi', ticker: 'A-2' },
            ],
          },
        ],
      },
    ];
    expect(() => parseEventCatalog(bad)).toThrow(CatalogError);
    try {
      parseEventCatalog(bad);
    } catch (err) {
      expect((err as Error).message).toMatch(/0\.slug/);
      expect((err as Error).message).toMatch(/two kalshi markets for one outcome/);
    }
  });

  it('builds events from the recorded markets: live quotes only, inverted refs priced at the NO ask', () => {
    const k = normalizeKalshiEvents(recorded().kalshiEvents).markets;
    const p = normalizeGammaEvents(recorded().gammaEvents.slice(0, 2)).markets;
    const { data, skipped } = buildCatalogEvents(catalog, indexMarkets([...k, ...p]));
    expect(EventsData.safeParse(data).success).toBe(true);
    const kh = data.events.find((e) => e.slug === 'khamenei-out-by-end-of-february-2026')!;
    // Kalshi's market is finalized: left out, never given a price; Polymarket's YES and NO asks stay.
    expect(kh.outcomes.map((o) => [o.name, o.quotes.map((q) => [q.operatorId, q.yesPrice])])).toEqual([
      ['Yes', [['polymarket', 0.999]]],
      ['No', [['polymarket', 0.002]]],
    ]);
    expect(skipped).toContainEqual(
      expect.objectContaining({ event: 'khamenei-out-by-end-of-february-2026', reason: 'market not open' }),
    );
    const pahlavi = data.events.find((e) => e.slug === 'us-recognizes-reza-pahlavi-2026')!;
    expect(pahlavi.outcomes.map((o) => o.quotes[0]!.yesPrice)).toEqual([0.27, 0.75]);
    // 40305 contracts at the $0.28 last trade
    expect(pahlavi.outcomes[0]!.quotes[0]!.volume24hUsd).toBe(11285.4);
  });

  it('cross-venue spread in cents: |A - B| x 100 from exact prices', () => {
    const mk = (
      venue: 'kalshi' | 'polymarket',
      id: string,
      eventId: string,
      yesAsk: number,
      noAsk: number,
      volume24hUsd: number,
    ): VenueMarket => ({
      venue,
      id,
      eventId,
      title: id,
      open: true,
      yesAsk,
      noAsk,
      volume24hUsd,
      openInterestUsd: 0,
      liquidityUsd: 0,
      closesAt: '2026-12-31T00:00:00.000Z',
      url: `https://example.invalid/${id}`,
    });
    const cat = parseEventCatalog([
      {
        slug: 'x-event',
        question: 'X?',
        category: 'politics',
        closesAt: '2026-12-31T00:00:00.000Z',
        reviewed: { by: 't', on: '2026-11-22' },
        outcomes: [
          {
            name: 'Yes',
            refs: [
              { operator: 'kalshi', ticker: 'KX-1' },
              { operator: 'polymarket', eventSlug: 'x', marketSlug: 'x-stays', invert: true },
            ],
          },
        ],
      },
    ]);
    // Kalshi asks 0.56 for YES; Polymarket asks "will X stay?" so our YES is its NO: 1 - bid 0.465 = 0.535
    const { data } = buildCatalogEvents(
      cat,
      indexMarkets([mk('kalshi', 'KX-1', 'KX', 0.56, 0.46, 1000), mk('polymarket', 'x-stays', 'x', 0.47, 0.535, 2500)]),
    );
    const [a, b] = data.events[0]!.outcomes[0]!.quotes;
    expect([a!.yesPrice, b!.yesPrice]).toEqual([0.56, 0.535]);
    expect(Math.abs(priceToCents(a!.yesPrice) - priceToCents(b!.yesPrice))).toBe(2.5);
    expect(a!.marketUrl).toBe('https://kalshi.com/events/KX');
  });
});

describe('The Odds API normalizer (odds-api-nba-odds.json)', () => {
  const now = new Date('2022-12-27T22:00:00Z');
  const teams = new TeamResolver('NBA');
  const { upcoming, dropped } = normalizeOdds(recorded().nbaOdds, { league: 'NBA', format: 'american', now, teams });

  it('maps bookmakers to operators and markets to lines', () => {
    expect(dropped).toEqual([]);
    expect(upcoming.map((m) => [m.homeCode, m.awayCode])).toEqual([
      ['ORL', 'LAL'],
      ['WAS', 'PHI'],
      ['IND', 'ATL'],
    ]);
    const game = upcoming[0]!;
    // draftkings: Magic -155 / Lakers +135, Magic -3.5 @ -110, total 236.5 @ -110
    expect(game.books.find((b) => b.operatorId === 'draftkings')).toEqual({
      operatorId: 'draftkings',
      lastUpdate: '2022-12-27T21:38:14.000Z',
      homeMoneyline: -155,
      awayMoneyline: 135,
      homeSpread: { point: -3.5, price: -110 },
      awaySpread: { point: 3.5, price: -110 },
      totalOver: { point: 236.5, price: -110 },
      totalUnder: { point: 236.5, price: -110 },
    });
    // williamhill_us is Caesars; betfair's exchange sends h2h (+ h2h_lay, ignored); unknown books are left out
    const ops = game.books.map((b) => b.operatorId);
    expect(ops).toEqual(expect.arrayContaining(['draftkings', 'fanduel', 'betmgm', 'caesars', 'betfair']));
    expect(ops).not.toContain('bovada');
    // Betfair is an exchange: its back odds -143 / +140 are before its 5 % commission on winnings.
    // -143 is decimal 1.699301 → 1 + 0.699301 × 0.95 = 1.664336 → -150.53; +140: 1 + 1.4 × 0.95 = 2.33 → +133.00.
    const betfair = game.books.find((b) => b.operatorId === 'betfair')!;
    expect(betfair.homeMoneyline).toBeCloseTo(-150.526, 2);
    expect(betfair.awayMoneyline).toBeCloseTo(133, 2);
    expect(betfair.homeSpread).toBeUndefined();
  });

  it('keeps only games not started, drops a malformed bookmaker and reads decimal odds when asked', () => {
    expect(
      normalizeOdds(recorded().nbaOdds, {
        league: 'NBA',
        format: 'american',
        now: new Date('2022-12-28T00:20:00Z'),
        teams,
      }).upcoming,
    ).toHaveLength(1);
    const ev = structuredClone(recorded().nbaOdds[0]!) as { bookmakers: Record<string, unknown>[] };
    ev.bookmakers[0]!.last_update = 'soon';
    const r = normalizeOdds([ev], { league: 'NBA', format: 'american', now, teams });
    expect(r.dropped).toHaveLength(1);
    expect(r.upcoming[0]!.books.map((b) => b.operatorId)).not.toContain('draftkings');
    expect(toAmerican(2.4, 'decimal')).toBeCloseTo(140, 9);
    // Exact (-166.67, shown -167): a 1.6 and a 1.599 must not tie.
    expect(toAmerican(1.6, 'decimal')).toBeCloseTo(-166.6667, 4);
    expect(toAmerican(-105, 'american')).toBe(-105);
    expect(toAmerican(50, 'american')).toBeUndefined();
  });

  it('puts Kalshi game contracts beside the books as American odds', () => {
    // kalshi-markets.json: George Washington at Utah Valley, 2026-03-18; UVU YES ask 0.55, GW 0.47.
    const ncaab = new TeamResolver('NCAAB');
    const game = normalizeOdds(
      [
        {
          id: 'g1',
          sport_key: 'basketball_ncaab',
          commence_time: '2026-03-19T01:00:00Z',
          home_team: 'Utah Valley',
          away_team: 'George Washington',
          bookmakers: [],
        },
      ],
      { league: 'NCAAB', format: 'american', now: new Date('2026-03-16T12:00:00Z'), teams: ncaab },
    ).upcoming;
    const k = normalizeKalshiMarkets(
      recorded().kalshiMarkets.filter((m) => String(m.ticker).startsWith('KXNCAAMBGAME')),
    ).markets;
    expect(gameDateOf('KXNCAAMBGAME-26MAR18GWUVU')).toBe(Date.UTC(2026, 2, 18));
    const [withKalshi] = addKalshiGameOdds(game, k, ncaab.teams(), new Date('2026-03-16T12:00:00Z'));
    // After Kalshi's fee on 100 contracts: 0.55 + round_up(0.07 × 100 × 0.55 × 0.45 = 1.7325 → 1.74)/100 = 0.5674
    // → -100 × 0.5674/0.4326 = -131.16, shown -131 (-122 before fees); 0.47 + round_up(1.7437 → 1.75)/100 = 0.4875
    // → 100 × 0.5125/0.4875 = 105.13, shown +105 (+113 before fees). Kept exact: best odds compare exact prices.
    const [book] = withKalshi!.books;
    expect(book).toMatchObject({ operatorId: 'kalshi', lastUpdate: '2026-03-16T12:00:00.000Z' });
    expect(Object.keys(book!).sort()).toEqual(['awayMoneyline', 'homeMoneyline', 'lastUpdate', 'operatorId']);
    expect(book!.homeMoneyline).toBeCloseTo(-131.1604, 4);
    expect(book!.awayMoneyline).toBeCloseTo(105.1282, 4);
    expect(
      LeagueData.safeParse({ league: 'NCAAB', teams: ncaab.teams(), finished: [], upcoming: [withKalshi] }).success,
    ).toBe(true);
  });
});

describe('ECB reference rates (ecb-eurofxref-daily.xml)', () => {
  it('turns per-EUR rates into per-USD rates', () => {
    const fx = ecbToFx(recorded().ecbXml);
    expect(fx.asOfDate).toBe('2025-05-09');
    expect(fx.rates.USD).toBe(1);
    // EUR per USD = 1 / 1.1252; GBP = 0.84770 / 1.1252; JPY = 163.36 / 1.1252
    expect(fx.rates.EUR).toBe(0.888731);
    expect(fx.rates.GBP).toBe(0.753377);
    expect(fx.rates.JPY).toBe(145.183);
    expect(Object.keys(fx.rates)).toHaveLength(31);
    expect(() => ecbToFx('<Cube><Cube currency="USD" rate="1.1"/></Cube>')).toThrow(/no dated/);
  });
});

describe('derived metrics', () => {
  it("sums each venue's market volume once per market, by category", () => {
    const k = normalizeKalshiEvents(recorded().kalshiEvents).markets;
    const { data } = buildCatalogEvents(loadEventCatalog(), indexMarkets(k));
    const m = deriveMetrics({ data, markets: k, categories: catalogCategories(loadEventCatalog()) }, []);
    const kalshi = m.operators.find((o) => o.operatorId === 'kalshi')!;
    // 14528.96 + 12623.40 + 6003.20 (nuclear deal) + 11285.40 (Pahlavi) + 80.10 (democracy), each market once
    expect(kalshi.volume24hUsd).toBe(Math.round(14528.96 + 12623.4 + 6003.2 + 11285.4 + 80.1));
    expect(kalshi.activeEvents).toBe(3);
    expect(kalshi.volumeByCategoryUsd.politics).toBe(kalshi.volume24hUsd);
  });
});
