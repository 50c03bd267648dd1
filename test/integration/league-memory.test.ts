/**
 * The odds-provider sportsbook source across worker restarts: closing lines seen before kick-off
 * and games already graded are kept in Redis, so a new source instance grades a game it never saw
 * priced and keeps trends that /scores no longer reaches.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOddsSportsbookSource } from '../../src/sources/combined/odds-sportsbook.js';
import { OddsApiClient } from '../../src/sources/odds-api/client.js';
import { redisLeagueMemory } from '../../src/sources/combined/redis-league-memory.js';
import { recorded, startReplayServer, type ReplayServer } from '../support/upstream-replay.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer();
  replay.data = recorded();
});
afterAll(async () => {
  await replay.stop();
});

const GAME = '066aa4c604d177adc145976864d73fe8'; // Lakers at Magic in the recorded odds
const source = () =>
  createOddsSportsbookSource({
    odds: new OddsApiClient({ baseUrl: `${replay.base}/odds`, apiKey: 'k', timeoutMs: 2_000 }),
    log,
    minIntervalMs: 0,
    scoresIntervalMs: 0,
    memory: redisLeagueMemory(redis.client),
  });

describe('league memory in Redis', () => {
  it('grades after a restart from the remembered closing line, and keeps graded games after another', async () => {
    // A fetch the refresh did not accept (the quality gate refused it) sets no closing line.
    const first = source();
    const refused = await first.fetchLeague('NBA', { now: new Date() });
    const before = await redis.client.get('pw:leaguememory:NBA');
    expect(before === null ? {} : (JSON.parse(before) as { closing: Record<string, unknown> }).closing).toEqual({});
    // Accepted, its consensus lines are remembered.
    first.accept(refused);
    await expect
      .poll(
        async () =>
          (
            JSON.parse((await redis.client.get('pw:leaguememory:NBA')) ?? '{"closing":{}}') as {
              closing: Record<string, unknown>;
            }
          ).closing[GAME],
      )
      .toBeDefined();
    const stored = JSON.parse((await redis.client.get('pw:leaguememory:NBA'))!) as { closing: Record<string, unknown> };
    // Home spreads -3.5, -3.5, -3.5, -4 → median -3.5; totals 236.5 x3 and 236 → median 236.5
    expect(stored.closing[GAME]).toEqual({ spreadHome: -3.5, total: 236.5 });

    // The game has started: the provider no longer lists its odds, and a new worker starts.
    replay.data.nbaOdds = [];
    replay.scores.basketball_nba = [
      {
        id: GAME,
        sport_key: 'basketball_nba',
        commence_time: '2022-12-28T00:10:00Z',
        completed: true,
        home_team: 'Orlando Magic',
        away_team: 'Los Angeles Lakers',
        scores: [
          { name: 'Orlando Magic', score: '116' },
          { name: 'Los Angeles Lakers', score: '108' },
        ],
        last_update: '2022-12-28T02:40:00Z',
      },
    ];
    const graded = await source().fetchLeague('NBA', { now: new Date() });
    expect(graded.finished).toEqual([
      {
        id: GAME,
        scheduledTime: '2022-12-28T00:10:00.000Z',
        homeCode: 'ORL',
        awayCode: 'LAL',
        homeScore: 116,
        awayScore: 108,
        closingSpreadHome: -3.5,
        closingTotal: 236.5,
      },
    ]);

    // Days later /scores no longer reaches the game; yet another worker still has it.
    replay.scores = {};
    const later = await source().fetchLeague('NBA', { now: new Date() });
    expect(later.finished.map((g) => g.id)).toEqual([GAME]);
  });

  it('ignores a corrupted memory rather than trusting it', async () => {
    await redis.client.set('pw:leaguememory:NFL', '{"closing":{"x":{"spreadHome":"not a number"}},"finished":[]}');
    expect(await redisLeagueMemory(redis.client).load('NFL')).toBeUndefined();
    await redis.client.set('pw:leaguememory:NFL', 'not json');
    expect(await redisLeagueMemory(redis.client).load('NFL')).toBeUndefined();
  });
});
