/** The odds-provider source's league memory, kept in Redis so it survives worker restarts. */
import type { Redis } from 'ioredis';
import { RememberedLeague, type LeagueMemory } from './league-memory.js';
import { readJsonValue } from '../../store/json-value.js';

const memoryKey = (league: string) => `pw:leaguememory:${league}`;
// A season is over within this; an abandoned key cleans itself up.
const TTL_SECONDS = 300 * 86_400;

export function redisLeagueMemory(redis: Redis): LeagueMemory {
  return {
    load: (league) => readJsonValue(redis, memoryKey(league), RememberedLeague),
    async save(league, remembered) {
      await redis.set(memoryKey(league), JSON.stringify(remembered), 'EX', TTL_SECONDS);
    },
  };
}
