import { describe, expect, it } from 'vitest';
import { buildSportsbookWidget, nextMatchup } from '../../src/widgets/sportsbook-widget.js';
import { formatOdds } from '../../src/domain/odds.js';
import { SportsbookWidgetPayload } from '../../src/widgets/payload-schemas.js';
import type { BookOdds, FinishedGame, LeagueData, Matchup } from '../../src/model/index.js';
import { makeContext } from './_widget-fixtures.js';

const T = '2026-11-22T12:00:00.000Z';

function game(
  id: string,
  awayCode: string,
  homeCode: string,
  awayScore: number,
  homeScore: number,
  closingSpreadHome: number,
  closingTotal: number,
): FinishedGame {
  return {
    id,
    scheduledTime: '2026-11-01T00:00:00.000Z',
    awayCode,
    homeCode,
    awayScore,
    homeScore,
    closingSpreadHome,
    closingTotal,
  };
}

const book = (operatorId: string, lines: Omit<BookOdds, 'operatorId' | 'lastUpdate'>): BookOdds => ({
  operatorId,
  lastUpdate: T,
  ...lines,
});

/*
 * Hand grading (margin = own score - other score + own spread; away spread = -home spread):
 * g1 NYK 100 @ BOS 110, home -5.5, total 215.5: BOS W, ATS 10-5.5=+4.5 W; NYK L, -4.5 L; 210 < 215.5 U
 * g2 BOS 108 @ LAL 105, home -2,   total 213:   BOS W, ATS 3+2=+5 W;                    213 = 213 P
 * g3 BOS 102 @ NYK 99,  home +3,   total 199.5: BOS W, ATS 3-3=0 P;  NYK L, -3+3=0 P;    201 > 199.5 O
 * g4 LAL 100 @ NYK 120, home -4.5, total 230.5: NYK W, ATS 20-4.5=+15.5 W;              220 < 230.5 U
 * g5 NYK 101 @ BOS 95,  home -7,   total 210:   BOS L, -6-7=-13 L;  NYK W, 6+7=+13 W;    196 < 210 U
 * g6 BOS 96  @ NYK 100, home -3.5, total 196:   NYK W, 4-3.5=+0.5 W; BOS L, -4+3.5=-0.5 L; 196 = 196 P
 * g7 LAL 90  @ BOS 115, home -10,  total 210:   BOS W, 25-10=+15 W;                      205 < 210 U
 *
 * BOS (g1 g2 g3 g5 g6 g7): SU 4-2; ATS W g1 g2 g7, L g5 g6, P g3 -> 3-2-1; O g3, U g1 g5 g7, P g2 g6 -> 1-3-2
 * NYK (g1 g3 g4 g5 g6):    SU 3-2; ATS W g4 g5 g6, L g1, P g3 -> 3-1-1;    O g3, U g1 g4 g5, P g6 -> 1-3-1
 */
const FINISHED: FinishedGame[] = [
  game('g1', 'NYK', 'BOS', 100, 110, -5.5, 215.5),
  game('g2', 'BOS', 'LAL', 108, 105, -2, 213),
  game('g3', 'BOS', 'NYK', 102, 99, 3, 199.5),
  game('g4', 'LAL', 'NYK', 100, 120, -4.5, 230.5),
  game('g5', 'NYK', 'BOS', 101, 95, -7, 210),
  game('g6', 'BOS', 'NYK', 96, 100, -3.5, 196),
  game('g7', 'LAL', 'BOS', 90, 115, -10, 210),
];

/*
 * Best lines (point first, then the higher payout; over: lower total; under: higher total):
 * away_spread: dk +3.5/-110, fd +3/-105, kalshi +3.5/-105      -> kalshi (same point as dk, better price)
 * home_spread: dk -3.5/-110, fd -3/-115, kalshi -3/-115        -> fd and kalshi (tie)
 * total_over:  dk 220.5/-110, fd 221.5/-105, kalshi 220.5/-110 -> dk and kalshi (tie on the lower total)
 * total_under: dk 220.5/-110, fd 221.5/-115 (kalshi none)      -> fd (higher total beats better price)
 * away ML:     dk +140 (2.40), fd +150 (2.50) (kalshi none)    -> fd
 * home ML:     dk -160 (1.625), fd -170 (1.588), kalshi -150 (1.667) -> kalshi
 * ghostbook is not in the catalog: it would lead everything if it were not dropped.
 */
const MATCHUP: Matchup = {
  id: 'nba-2026-11-23-nyk-bos',
  scheduledTime: '2026-11-23T00:30:00.000Z',
  homeCode: 'BOS',
  awayCode: 'NYK',
  books: [
    book('draftkings', {
      awaySpread: { point: 3.5, price: -110 },
      homeSpread: { point: -3.5, price: -110 },
      totalOver: { point: 220.5, price: -110 },
      totalUnder: { point: 220.5, price: -110 },
      awayMoneyline: 140,
      homeMoneyline: -160,
    }),
    book('ghostbook', {
      awaySpread: { point: 10, price: 200 },
      homeSpread: { point: 10, price: 200 },
      totalOver: { point: 150, price: 200 },
      totalUnder: { point: 300, price: 200 },
      awayMoneyline: 900,
      homeMoneyline: 900,
    }),
    book('fanduel', {
      awaySpread: { point: 3, price: -105 },
      homeSpread: { point: -3, price: -115 },
      totalOver: { point: 221.5, price: -105 },
      totalUnder: { point: 221.5, price: -115 },
      awayMoneyline: 150,
      homeMoneyline: -170,
    }),
    book('kalshi', {
      awaySpread: { point: 3.5, price: -105 },
      homeSpread: { point: -3, price: -115 },
      totalOver: { point: 220.5, price: -110 },
      homeMoneyline: -150,
    }),
  ],
};

const NBA: LeagueData = {
  league: 'NBA',
  teams: [
    { code: 'BOS', name: 'Boston Celtics', aliases: ['Boston', 'Celtics'] },
    { code: 'NYK', name: 'New York Knicks', aliases: ['New York', 'Knicks'] },
    { code: 'LAL', name: 'Los Angeles Lakers', aliases: ['Lakers'] },
  ],
  finished: FINISHED,
  upcoming: [MATCHUP],
};

describe('buildSportsbookWidget', () => {
  const ctx = makeContext();
  const payload = buildSportsbookWidget(NBA, MATCHUP, ctx);

  it('satisfies the payload schema', () => {
    expect(() => SportsbookWidgetPayload.parse(payload)).not.toThrow();
    expect(payload.widget_class).toBe('sportsbook');
    expect(payload.league).toBe('NBA');
  });

  it('fills match_meta with "Away @ Home" for a US league', () => {
    expect(payload.match_meta).toEqual({
      event_id: 'nba-2026-11-23-nyk-bos',
      scheduled_time: '2026-11-23T00:30:00.000Z',
      status: 'UPCOMING',
      matchup: 'New York Knicks @ Boston Celtics',
    });
  });

  it('computes team analytics from finished games under lowercase team-code keys', () => {
    expect(payload.team_analytics).toEqual({
      nyk_record: '3-2',
      nyk_ats_ou: { ats: '3-1-1', ou: '1-3-1' },
      bos_record: '4-2',
      bos_ats_ou: { ats: '3-2-1', ou: '1-3-2' },
    });
  });

  it('drops books from operators not in the catalog and keeps catalog names and capabilities', () => {
    expect(payload.odds_matrix.operators.map((o) => [o.name, o.capabilities])).toEqual([
      ['DraftKings', ['SAME_GAME_PARLAY']],
      ['FanDuel', ['PRO_LIQUIDITY', 'LIVE']],
      ['Kalshi', ['PRO_LIQUIDITY']],
    ]);
  });

  it('formats lines: signed spreads, signed American odds, unsigned totals; missing lines are omitted', () => {
    const [dk, fd, kalshi] = payload.odds_matrix.operators;
    expect(dk!.lines).toEqual({
      away_spread: { line: '+3.5', odds: '-110' },
      home_spread: { line: '-3.5', odds: '-110' },
      total_over: { line: '220.5', odds: '-110' },
      total_under: { line: '220.5', odds: '-110' },
      away_moneyline: '+140',
      home_moneyline: '-160',
    });
    expect(fd!.lines).toEqual({
      away_spread: { line: '+3', odds: '-105' },
      home_spread: { line: '-3', odds: '-115' },
      total_over: { line: '221.5', odds: '-105' },
      total_under: { line: '221.5', odds: '-115' },
      away_moneyline: '+150',
      home_moneyline: '-170',
    });
    expect(kalshi!.lines).toEqual({
      away_spread: { line: '+3.5', odds: '-105' },
      home_spread: { line: '-3', odds: '-115' },
      total_over: { line: '220.5', odds: '-110' },
      home_moneyline: '-150',
    });
    expect(Object.keys(kalshi!.lines)).not.toContain('total_under');
    expect(Object.keys(kalshi!.lines)).not.toContain('away_moneyline');
  });

  it('marks best odds per line by the best-odds rule of docs/design.md, flagging every tied operator', () => {
    const best = Object.fromEntries(payload.odds_matrix.operators.map((o) => [o.name, o.best_odds]));
    expect(best).toEqual({
      DraftKings: ['total_over'],
      FanDuel: ['home_spread', 'total_under', 'away_moneyline'],
      Kalshi: ['away_spread', 'home_spread', 'total_over', 'home_moneyline'],
    });
  });

  it('shows a pick-em spread as "0", an integer total without decimals, and +100 odds signed', () => {
    const m: Matchup = {
      ...MATCHUP,
      books: [
        book('draftkings', {
          awaySpread: { point: 0, price: 100 },
          homeSpread: { point: 0, price: -120 },
          totalOver: { point: 221, price: 100 },
          totalUnder: { point: 221, price: -120 },
        }),
      ],
    };
    const p = buildSportsbookWidget(NBA, m, ctx);
    expect(() => SportsbookWidgetPayload.parse(p)).not.toThrow();
    expect(p.odds_matrix.operators[0]!.lines).toEqual({
      away_spread: { line: '0', odds: '+100' },
      home_spread: { line: '0', odds: '-120' },
      total_over: { line: '221', odds: '+100' },
      total_under: { line: '221', odds: '-120' },
    });
    // The only operator leads every line it offers, and nothing else.
    expect(p.odds_matrix.operators[0]!.best_odds).toEqual(['away_spread', 'home_spread', 'total_over', 'total_under']);
  });

  it('keeps float noise from upstream arithmetic out of spread and total strings alike', () => {
    // 220.1 + 0.2 = 220.29999999999998 and 1.1 + 2.2 = 3.3000000000000003 in binary floats
    const noisyTotal = 220.1 + 0.2;
    const noisySpread = 1.1 + 2.2;
    expect(noisyTotal).not.toBe(220.3);
    expect(noisySpread).not.toBe(3.3);
    const m: Matchup = {
      ...MATCHUP,
      books: [
        book('draftkings', {
          awaySpread: { point: noisySpread, price: -110 },
          totalOver: { point: noisyTotal, price: -110 },
          totalUnder: { point: noisyTotal, price: -110 },
        }),
      ],
    };
    const lines = buildSportsbookWidget(NBA, m, ctx).odds_matrix.operators[0]!.lines;
    expect(lines.away_spread).toEqual({ line: '+3.3', odds: '-110' });
    expect(lines.total_over).toEqual({ line: '220.3', odds: '-110' });
    expect(lines.total_under).toEqual({ line: '220.3', odds: '-110' });
  });

  it('gives 0-0 records to teams with no finished games', () => {
    const data: LeagueData = { ...NBA, finished: [] };
    const p = buildSportsbookWidget(data, MATCHUP, ctx);
    expect(p.team_analytics).toEqual({
      nyk_record: '0-0',
      nyk_ats_ou: { ats: '0-0-0', ou: '0-0-0' },
      bos_record: '0-0',
      bos_ats_ou: { ats: '0-0-0', ou: '0-0-0' },
    });
  });

  it('writes EPL matchups "Home vs Away"', () => {
    const epl: LeagueData = {
      league: 'EPL',
      teams: [
        { code: 'ARS', name: 'Arsenal', aliases: ['Gunners'] },
        { code: 'CHE', name: 'Chelsea', aliases: ['Blues'] },
      ],
      finished: [
        // ARS 2-1 CHE at ARS, home -0.5 (ARS margin 1-0.5 = +0.5 W; CHE -1+0.5 = -0.5 L), total 2.5: 3 > 2.5 O
        game('e1', 'CHE', 'ARS', 1, 2, -0.5, 2.5),
        // CHE 1-1 ARS at CHE, home -0.25: a quarter line is half on 0 and half on -0.5.
        // CHE on a draw: half push (0), half loss (-0.5); ARS +0.25: half push, half win.
        // Total 2.25: 2 goals is half push (2) and half under (2.5).
        game('e2', 'ARS', 'CHE', 1, 1, -0.25, 2.25),
      ],
      upcoming: [],
    };
    const m: Matchup = {
      id: 'epl-ars-che',
      scheduledTime: '2026-11-28T15:00:00.000Z',
      homeCode: 'ARS',
      awayCode: 'CHE',
      books: [
        book('draftkings', { homeMoneyline: 120, awayMoneyline: 210, drawMoneyline: 240 }),
        book('fanduel', { homeMoneyline: 115, awayMoneyline: 220, drawMoneyline: 250 }),
      ],
    };
    const p = buildSportsbookWidget(epl, m, ctx);
    expect(() => SportsbookWidgetPayload.parse(p)).not.toThrow();
    expect(p.match_meta.matchup).toBe('Arsenal vs Chelsea');
    // W-L leaves the draw out (the spec's form); W-D-L shows it.
    expect(p.team_analytics).toEqual({
      che_record: '0-1',
      che_record_wdl: '0-1-1',
      che_ats_ou: { ats: '0-1.5-0.5', ou: '1-0.5-0.5' },
      ars_record: '1-0',
      ars_record_wdl: '1-1-0',
      ars_ats_ou: { ats: '1.5-0-0.5', ou: '1-0.5-0.5' },
    });
    const [dk, fd] = p.odds_matrix.operators;
    expect(dk!.lines).toEqual({ away_moneyline: '+210', home_moneyline: '+120', draw_moneyline: '+240' });
    // The draw is a line of its own for best odds: +250 beats +240.
    expect(dk!.best_odds).toEqual(['home_moneyline']);
    expect(fd!.best_odds).toEqual(['away_moneyline', 'draw_moneyline']);
  });

  it('gives US leagues no W-D-L record and no draw', () => {
    const nba: LeagueData = {
      league: 'NBA',
      teams: [
        { code: 'BOS', name: 'Boston Celtics', aliases: [] },
        { code: 'NYK', name: 'New York Knicks', aliases: [] },
      ],
      finished: [game('n1', 'NYK', 'BOS', 100, 110, -5.5, 215.5)],
      upcoming: [],
    };
    const m: Matchup = {
      id: 'n2',
      scheduledTime: '2026-11-28T15:00:00.000Z',
      homeCode: 'BOS',
      awayCode: 'NYK',
      books: [book('draftkings', { homeMoneyline: -150, awayMoneyline: 130 })],
    };
    const p = buildSportsbookWidget(nba, m, ctx);
    expect(Object.keys(p.team_analytics).sort()).toEqual(['bos_ats_ou', 'bos_record', 'nyk_ats_ou', 'nyk_record']);
    expect('draw_moneyline' in p.odds_matrix.operators[0]!.lines).toBe(false);
  });
});

describe('nextMatchup', () => {
  const now = new Date('2026-11-22T20:00:00.000Z');
  const m = (id: string, scheduledTime: string, awayCode: string, homeCode: string): Matchup => ({
    id,
    scheduledTime,
    awayCode,
    homeCode,
    books: [],
  });
  const data: LeagueData = {
    ...NBA,
    upcoming: [
      m('started', '2026-11-22T19:00:00.000Z', 'NYK', 'BOS'),
      m('tipping-off-now', '2026-11-22T20:00:00.000Z', 'LAL', 'BOS'),
      m('next-bos', '2026-11-23T00:30:00.000Z', 'NYK', 'BOS'),
      m('later-lal', '2026-11-24T03:00:00.000Z', 'BOS', 'LAL'),
      m('much-later-lal', '2026-11-26T03:00:00.000Z', 'LAL', 'NYK'),
    ],
  };

  it('returns the first game not yet started', () => {
    expect(nextMatchup(data, now)?.id).toBe('next-bos');
  });

  it('filters by team code, home or away', () => {
    expect(nextMatchup(data, now, 'LAL')?.id).toBe('later-lal');
    expect(nextMatchup(data, now, 'NYK')?.id).toBe('next-bos');
  });

  it('returns undefined when no game qualifies (odds formats: below)', () => {
    expect(nextMatchup(data, now, 'MIA')).toBeUndefined();
    expect(nextMatchup(data, new Date('2027-01-01T00:00:00.000Z'))).toBeUndefined();
  });
});

describe('buildSportsbookWidget odds formats', () => {
  const american = buildSportsbookWidget(NBA, MATCHUP, makeContext());

  it("defaults to the format of the visitor's country and says which", () => {
    expect(american.odds_format).toBe('american');
    expect(buildSportsbookWidget(NBA, MATCHUP, makeContext({ country: 'GB' })).odds_format).toBe('fractional');
    expect(buildSportsbookWidget(NBA, MATCHUP, makeContext({ country: 'DE' })).odds_format).toBe('decimal');
  });

  it('writes every line in the format asked for, same lines, best odds unchanged', () => {
    for (const format of ['decimal', 'fractional'] as const) {
      const p = buildSportsbookWidget(NBA, MATCHUP, makeContext(), format);
      expect(() => SportsbookWidgetPayload.parse(p)).not.toThrow();
      expect(p.odds_format).toBe(format);
      for (const [i, op] of p.odds_matrix.operators.entries()) {
        const us = american.odds_matrix.operators[i]!;
        expect(op.best_odds).toEqual(us.best_odds);
        expect(Object.keys(op.lines)).toEqual(Object.keys(us.lines));
        for (const [key, value] of Object.entries(op.lines)) {
          const usValue = us.lines[key as keyof typeof us.lines]!;
          const [odds, usOdds] =
            typeof value === 'string' ? [value, usValue as string] : [value.odds, (usValue as { odds: string }).odds];
          expect(odds).toBe(formatOdds(Number(usOdds), format));
        }
      }
    }
  });
});
