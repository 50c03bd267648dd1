/** The odds-provider source's league memory, kept in Redis so it survives worker restarts. */
import type { Redis } from 'ioredis';
import { RememberedLeague, type LeagueMemory } from '../sources/combined/league-memory.js';

const memoryKey = (league: string) => `pw:leaguememory:${league}`;
// A season is over within this; an abandoned key cleans itself up.
const TTL_SECONDS = 300 * 86_400;

export function redisLeagueMemory(redis: Redis): LeagueMemory {
  return {
    async load(league) {
      const raw = await redis.get(memoryKey(league));
      if (raw === null) return undefined;
      // Validated like every Redis read; a bad value is dropped rather than trusted.
      try {
        const parsed = RememberedLeague.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async save(league, remembered) {
      await redis.set(memoryKey(league), JSON.stringify(remembered), 'EX', TTL_SECONDS);
    },
  };
}
