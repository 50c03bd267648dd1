import { describe, it, expect } from 'vitest';
import type { FinishedGame } from '../../src/model/index.js';
import {
  atsRecord,
  formatPair,
  formatTriple,
  overUnderRecord,
  straightUpRecord,
} from '../../src/domain/team-records.js';

let seq = 0;
function game(
  homeCode: string,
  homeScore: number,
  awayCode: string,
  awayScore: number,
  closingSpreadHome: number,
  closingTotal: number,
): FinishedGame {
  seq += 1;
  return {
    id: `g${seq}`,
    scheduledTime: `2026-11-${String(seq).padStart(2, '0')}T00:00:00.000Z`,
    homeCode,
    awayCode,
    homeScore,
    awayScore,
    closingSpreadHome,
    closingTotal,
  };
}

// NBA season slice. Per game, for BOS and NYK (margin = own - opp + own spread):
const nba: FinishedGame[] = [
  // BOS 110-100 NYK, BOS -5.5. BOS: W; ATS 10 - 5.5 = +4.5 W. NYK: -10 + 5.5 = -4.5 L. 210 < 215.5 under.
  game('BOS', 110, 'NYK', 100, -5.5, 215.5),
  // NYK 105-102 BOS, NYK -3 (BOS +3). BOS: L; ATS -3 + 3 = 0 push. NYK: 3 - 3 = 0 push. 207 = 207 push.
  game('NYK', 105, 'BOS', 102, -3, 207),
  // BOS 99-101 MIA, BOS +1.5 at home. BOS: L; ATS -2 + 1.5 = -0.5 L. 200 > 199.5 over.
  game('BOS', 99, 'MIA', 101, 1.5, 199.5),
  // MIA 120-90 NYK, MIA -2 (NYK +2). BOS not involved. NYK: L; ATS -30 + 2 = -28 L. 210 > 200 over.
  game('MIA', 120, 'NYK', 90, -2, 200),
  // PHI 95-100 BOS, PHI +4 (BOS -4). BOS: W; ATS 5 - 4 = +1 W. 195 < 210 under.
  game('PHI', 95, 'BOS', 100, 4, 210),
];

describe('straightUpRecord', () => {
  it('counts wins and losses from either side of the ball', () => {
    expect(straightUpRecord(nba, 'BOS')).toEqual({ wins: 2, losses: 2, draws: 0 });
    expect(straightUpRecord(nba, 'NYK')).toEqual({ wins: 1, losses: 2, draws: 0 });
  });

  it('ignores games of other teams', () => {
    expect(straightUpRecord(nba, 'PHI')).toEqual({ wins: 0, losses: 1, draws: 0 });
    expect(straightUpRecord(nba, 'LAL')).toEqual({ wins: 0, losses: 0, draws: 0 });
    expect(straightUpRecord([], 'BOS')).toEqual({ wins: 0, losses: 0, draws: 0 });
  });
});

describe('atsRecord', () => {
  it('grades home and away spreads, with pushes', () => {
    // BOS: W, P, L, W
    expect(atsRecord(nba, 'BOS')).toEqual({ wins: 2, losses: 1, pushes: 1 });
    // NYK: L, P, L
    expect(atsRecord(nba, 'NYK')).toEqual({ wins: 0, losses: 2, pushes: 1 });
  });

  it('negates the home spread for the away team', () => {
    // MIA at BOS, BOS +1.5 so MIA -1.5: MIA won by 2 → 2 - 1.5 = +0.5 W
    // MIA v NYK at home, -2: 30 - 2 = +28 W
    expect(atsRecord(nba, 'MIA')).toEqual({ wins: 2, losses: 0, pushes: 0 });
  });

  it('ignores games of other teams', () => {
    expect(atsRecord(nba, 'LAL')).toEqual({ wins: 0, losses: 0, pushes: 0 });
  });
});

describe('overUnderRecord', () => {
  it('grades total points against the closing total, with pushes', () => {
    // BOS games: under, push, over, under
    expect(overUnderRecord(nba, 'BOS')).toEqual({ overs: 1, unders: 2, pushes: 1 });
    // NYK games: under, push, over
    expect(overUnderRecord(nba, 'NYK')).toEqual({ overs: 1, unders: 1, pushes: 1 });
  });

  it('ignores games of other teams', () => {
    expect(overUnderRecord(nba, 'PHI')).toEqual({ overs: 0, unders: 1, pushes: 0 });
    expect(overUnderRecord(nba, 'LAL')).toEqual({ overs: 0, unders: 0, pushes: 0 });
  });
});

describe('EPL: draws', () => {
  const epl: FinishedGame[] = [
    // ARS 1-1 CHE, ARS -0.5. Draw. ARS ATS 0 - 0.5 L; CHE 0 + 0.5 W. 2 < 2.5 under.
    game('ARS', 1, 'CHE', 1, -0.5, 2.5),
    // LIV 2-2 ARS, pick'em (0). Draw. ARS ATS 0 + 0 push. 4 > 3 over.
    game('LIV', 2, 'ARS', 2, 0, 3),
    // ARS 3-1 TOT, ARS -1. ARS W; ATS 2 - 1 = +1 W. 4 > 2.5 over.
    game('ARS', 3, 'TOT', 1, -1, 2.5),
  ];

  it('counts draws apart from wins and losses', () => {
    expect(straightUpRecord(epl, 'ARS')).toEqual({ wins: 1, losses: 0, draws: 2 });
    expect(straightUpRecord(epl, 'CHE')).toEqual({ wins: 0, losses: 0, draws: 1 });
    expect(straightUpRecord(epl, 'TOT')).toEqual({ wins: 0, losses: 1, draws: 0 });
  });

  it('grades a draw against the handicap', () => {
    expect(atsRecord(epl, 'ARS')).toEqual({ wins: 1, losses: 1, pushes: 1 });
    expect(atsRecord(epl, 'CHE')).toEqual({ wins: 1, losses: 0, pushes: 0 });
    expect(overUnderRecord(epl, 'ARS')).toEqual({ overs: 2, unders: 1, pushes: 0 });
  });
});

describe('formatTriple and formatPair', () => {
  it('joins counts with hyphens', () => {
    expect(formatTriple(3, 2, 1)).toBe('3-2-1');
    expect(formatTriple(0, 0, 0)).toBe('0-0-0');
    expect(formatTriple(12, 10, 3)).toBe('12-10-3');
    expect(formatPair(3, 2)).toBe('3-2');
    expect(formatPair(0, 15)).toBe('0-15');
  });
});
