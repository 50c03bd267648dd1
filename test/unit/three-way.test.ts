/**
 * Soccer is three-way: the draw from the simulator's goal model, from The Odds API's h2h "Draw"
 * outcome (shaped fixture) and from Kalshi's tie contract; Asian handicaps priced from the same
 * three-way model.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { americanToProbability } from '../../src/domain/odds.js';
import { LeagueData, type Matchup, type VenueMarket } from '../../src/model/index.js';
import { addKalshiGameOdds } from '../../src/sources/kalshi/games.js';
import { TeamResolver } from '../../src/sources/odds-api/mapping.js';
import { normalizeOdds } from '../../src/sources/odds-api/normalize.js';
import { marketView } from '../../src/sources/simulator/game-model.js';
import { createSimulator } from '../../src/sources/simulator/index.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('simulator: EPL draw line', () => {
  it('prices a draw for every book, and the three prices carry a margin', async () => {
    const epl = await createSimulator({ seed: 42 }).fetchLeague('EPL', { now: NOW });
    LeagueData.parse(epl);
    expect(epl.upcoming.length).toBeGreaterThan(0);
    for (const m of epl.upcoming) {
      for (const b of m.books) {
        expect(b.drawMoneyline, `${m.id} ${b.operatorId}`).toBeDefined();
        const implied = [b.homeMoneyline!, b.awayMoneyline!, b.drawMoneyline!].map(americanToProbability);
        // Every book, exchange or sportsbook, asks more than the fair 100 %.
        expect(
          implied.reduce((s, p) => s + p, 0),
          `${m.id} ${b.operatorId}`,
        ).toBeGreaterThan(1);
      }
    }
  });

  it('gives US leagues no draw', async () => {
    const nba = await createSimulator({ seed: 42 }).fetchLeague('NBA', { now: NOW });
    for (const m of nba.upcoming) for (const b of m.books) expect(b.drawMoneyline).toBeUndefined();
  });
});

describe('simulator: Asian handicaps agree with the three-way prices', () => {
  const views = ['g1', 'g2', 'g3', 'g4'].map((id, i) =>
    marketView(7, 'EPL', 2026, id, ['ARS', 'LIV', 'BUR', 'CHE'][i]!, ['BUR', 'MCI', 'ARS', 'TOT'][i]!, 1_790_000_000),
  );

  it('home, draw and away sum to 1', () => {
    for (const v of views) expect(v.homeWins + v.draw + v.awayWins).toBeCloseTo(1, 12);
  });

  it('prices -0.5 as the home win, +0.5 as home-or-draw and 0 as draw-no-bet', () => {
    for (const v of views) {
      const { homeWins: h, draw: d, awayWins: a } = v;
      expect(v.homeCovers(-0.5)).toBeCloseTo(h, 12);
      expect(v.homeCovers(0.5)).toBeCloseTo(h + d, 12);
      expect(v.homeCovers(0)).toBeCloseTo(h / (h + a), 12);
    }
  });

  it('prices a quarter line as two half stakes: -0.25 breaks even at H / (H + D/2 + A)', () => {
    for (const v of views) {
      const { homeWins: h, draw: d, awayWins: a } = v;
      // A draw loses the half on -0.5 and pushes the half on 0.
      expect(v.homeCovers(-0.25)).toBeCloseTo(h / (h + d / 2 + a), 12);
      // +0.25: a draw wins the half on +0.5 and pushes the half on 0.
      expect(v.homeCovers(0.25)).toBeCloseTo((h + d / 2) / (h + d / 2 + a), 12);
    }
  });
});

describe('The Odds API: soccer h2h Draw (shaped fixture, v4 format)', () => {
  const raw = JSON.parse(
    readFileSync(new URL('../fixtures/shaped/odds-api-epl-odds.json', import.meta.url), 'utf8'),
  ) as unknown[];
  const teams = new TeamResolver('EPL');
  // Read the morning of the game: the books' last_update stamps (the day before) are behind our clock, not ahead of it.
  const { upcoming, dropped } = normalizeOdds(raw, {
    league: 'EPL',
    format: 'american',
    now: new Date('2026-11-27T18:05:00.000Z'),
    teams,
  });

  it('reads the Draw outcome as drawMoneyline beside the two teams', () => {
    expect(dropped).toEqual([]);
    const [game] = upcoming;
    expect([game!.homeCode, game!.awayCode]).toEqual(['ARS', 'CHE']);
    expect(game!.books.find((b) => b.operatorId === 'draftkings')).toEqual({
      operatorId: 'draftkings',
      lastUpdate: '2026-11-27T18:02:11.000Z',
      homeMoneyline: -120,
      awayMoneyline: 330,
      drawMoneyline: 280,
      homeSpread: { point: -0.75, price: -105 },
      awaySpread: { point: 0.75, price: -115 },
      totalOver: { point: 2.5, price: -110 },
      totalUnder: { point: 2.5, price: -110 },
    });
    // williamhill_us is Caesars; unibet_eu is not carried.
    expect(game!.books.map((b) => [b.operatorId, b.drawMoneyline])).toEqual([
      ['draftkings', 280],
      ['caesars', 290],
    ]);
    LeagueData.parse({ league: 'EPL', teams: teams.teams(), finished: [], upcoming });
  });
});

describe("Kalshi's tie contract", () => {
  const market = (id: string, label: string, yesAsk: number): VenueMarket => ({
    venue: 'kalshi',
    id,
    eventId: 'KXEPLGAME-26NOV28ARSCHE',
    title: `Arsenal vs Chelsea: ${label}`,
    outcomeLabel: label,
    open: true,
    yesAsk,
    volume24hUsd: 0,
    openInterestUsd: 0,
    liquidityUsd: 0,
    url: 'https://kalshi.com/events/KXEPLGAME-26NOV28ARSCHE',
  });
  const teams = new TeamResolver('EPL');
  const game: Matchup = {
    id: 'g',
    scheduledTime: '2026-11-28T15:00:00.000Z',
    homeCode: 'ARS',
    awayCode: 'CHE',
    books: [],
  };

  it('becomes the draw moneyline, after the fee', () => {
    const markets = [
      market('KXEPLGAME-26NOV28ARSCHE-ARS', 'Arsenal', 0.51),
      market('KXEPLGAME-26NOV28ARSCHE-CHE', 'Chelsea', 0.22),
      market('KXEPLGAME-26NOV28ARSCHE-TIE', 'Tie', 0.29),
    ];
    const [withKalshi] = addKalshiGameOdds([game], markets, teams.teams(), NOW);
    // Exact, shown rounded: 0.51 + 1.75/100 = 0.5275 → -111.64 (-112); 0.22 + round_up(0.07 × 100 × 0.22 × 0.78
    // = 1.2012 → 1.21)/100 = 0.2321 → 100 × 0.7679/0.2321 = 330.85 (+331); 0.29 + round_up(1.4413 → 1.45)/100
    // = 0.3045 → 100 × 0.6955/0.3045 = 228.41 (+228)
    const [book] = withKalshi!.books;
    expect(book).toMatchObject({ operatorId: 'kalshi', lastUpdate: NOW.toISOString() });
    expect(book!.homeMoneyline).toBeCloseTo(-111.6402, 4);
    expect(book!.awayMoneyline).toBeCloseTo(330.8488, 4);
    expect(book!.drawMoneyline).toBeCloseTo(228.4072, 4);
  });
});
