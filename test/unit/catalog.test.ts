import { describe, expect, it } from 'vitest';
import type { LeagueData } from '../../src/model/index.js';
import { buildCatalog, nextCatalogChange, type CatalogInput } from '../../src/widgets/catalog.js';
import { CatalogPayload } from '../../src/widgets/payload-schemas.js';
import { oneEvent, oneMatchup, T1 } from '../support/fixtures.js';

function input(): CatalogInput {
  const events = oneEvent(0.5).events;
  const closed = { ...events[0]!, slug: 'closed-event', closesAt: '2026-11-01T00:00:00.000Z' };
  const nba = oneMatchup(-150, 130);
  const later = {
    ...nba.upcoming[0]!,
    id: 'm2',
    scheduledTime: '2026-11-25T00:30:00.000Z',
    homeCode: 'NYK',
    awayCode: 'BOS',
  };
  const started = { ...nba.upcoming[0]!, id: 'm0', scheduledTime: '2026-11-22T13:00:00.000Z' };
  const league: LeagueData = { ...nba, upcoming: [later, started, ...nba.upcoming] };
  return {
    events: [closed, ...events],
    leagues: [
      { league: 'NBA', data: league },
      { league: 'NFL', data: undefined },
    ],
    live: [{ asset: 'BTC', horizons: [5, 15] }],
    changedAt: T1.toISOString(),
  };
}

describe('buildCatalog', () => {
  it('lists open events, upcoming matchups soonest first with team names, and live markets', () => {
    const payload = CatalogPayload.parse(buildCatalog(input(), T1));
    expect(payload.events).toEqual([
      {
        slug: 'fed-december-2026',
        question: 'Fed decision?',
        category: 'economics',
        closes_at: '2026-12-16T19:00:00.000Z',
        outcomes: ['Cut'],
      },
    ]);
    expect(payload.leagues).toEqual([
      {
        league: 'NBA',
        upcoming: [
          {
            event_id: 'm1',
            scheduled_time: '2026-11-23T00:30:00.000Z',
            home: { code: 'BOS', name: 'Boston Celtics' },
            away: { code: 'NYK', name: 'New York Knicks' },
          },
          {
            event_id: 'm2',
            scheduled_time: '2026-11-25T00:30:00.000Z',
            home: { code: 'NYK', name: 'New York Knicks' },
            away: { code: 'BOS', name: 'Boston Celtics' },
          },
        ],
      },
      { league: 'NFL', upcoming: [] },
    ]);
    expect(payload.live_markets).toEqual([{ asset: 'BTC', horizon_minutes: [5, 15] }]);
    expect(payload.timestamp).toBe(T1.toISOString());
  });

  it('changes next when the first upcoming matchup starts or an event closes', () => {
    expect(nextCatalogChange(input(), T1)).toBe(Date.parse('2026-11-23T00:30:00.000Z'));
    expect(nextCatalogChange(input(), new Date('2026-11-26T00:00:00.000Z'))).toBe(
      Date.parse('2026-12-16T19:00:00.000Z'),
    );
    expect(nextCatalogChange(input(), new Date('2027-01-01T00:00:00.000Z'))).toBeUndefined();
  });
});
