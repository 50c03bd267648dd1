/**
 * What the odds-provider sportsbook source must not forget when the worker restarts: the closing
 * line of every game not yet graded (the provider's /scores has none), and the games already graded
 * (/scores only reaches back a few days). The store is given to the source, so the source stays
 * free of Redis and its tests can use the in-memory one.
 */
import { z } from 'zod';
import { FinishedGame, type League } from '../../model/index.js';

export const RememberedLeague = z.object({
  closing: z.record(z.string(), z.object({ spreadHome: z.number().finite(), total: z.number().positive().finite() })),
  finished: z.array(FinishedGame),
});
export type RememberedLeague = z.infer<typeof RememberedLeague>;

export interface LeagueMemory {
  load(league: League): Promise<RememberedLeague | undefined>;
  save(league: League, remembered: RememberedLeague): Promise<void>;
}

/** A memory that lasts as long as the process (the default). */
export function processMemory(): LeagueMemory {
  const kept = new Map<League, RememberedLeague>();
  return {
    load: async (league) => kept.get(league),
    save: async (league, remembered) => void kept.set(league, remembered),
  };
}
