/** Small hand-made snapshot data shared by the integration tests. */
import type { EventsData, LeagueData } from '../../src/model/index.js';

export const T1 = new Date('2026-11-22T14:00:00.000Z');
export const T2 = new Date('2026-11-22T14:00:05.000Z');
export const T3 = new Date('2026-11-22T14:00:10.000Z');

/** One event with one Kalshi-quoted outcome at `price`. */
export function oneEvent(price: number, volume24hUsd = 100): EventsData {
  return {
    events: [
      {
        slug: 'fed-december-2026',
        question: 'Fed decision?',
        category: 'economics',
        closesAt: '2026-12-16T19:00:00.000Z',
        outcomes: [
          {
            name: 'Cut',
            quotes: [
              { operatorId: 'kalshi', yesPrice: price, volume24hUsd, marketUrl: 'https://kalshi.com/markets/kxfed' },
            ],
          },
        ],
      },
    ],
  };
}

/** A two-team NBA league with one upcoming matchup priced by one book. */
export function oneMatchup(homeMoneyline: number, awayMoneyline?: number): LeagueData {
  return {
    league: 'NBA',
    teams: [
      { code: 'BOS', name: 'Boston Celtics', aliases: [] },
      { code: 'NYK', name: 'New York Knicks', aliases: [] },
    ],
    finished: [],
    upcoming: [
      {
        id: 'm1',
        scheduledTime: '2026-11-23T00:30:00.000Z',
        homeCode: 'BOS',
        awayCode: 'NYK',
        books: [
          {
            operatorId: 'draftkings',
            lastUpdate: '2026-11-22T13:59:00.000Z',
            homeMoneyline,
            ...(awayMoneyline === undefined ? {} : { awayMoneyline }),
          },
        ],
      },
    ],
  };
}
