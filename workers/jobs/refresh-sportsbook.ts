/** Job: refresh one league's sportsbook snapshot (`pw:snap:sportsbook:{LEAGUE}`). */
import { League, type LeagueData } from '../../src/model/index.js';
import type { SportsbookSource } from '../../src/sources/source.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_SPORTSBOOK = 'refresh-sportsbook';

export function refreshSportsbook(
  deps: RefreshDeps,
  source: SportsbookSource & { accept?(data: LeagueData, published: LeagueData): void },
) {
  return (data: unknown) => {
    const league = League.parse((data as { league?: unknown } | null)?.league);
    // Only a fetch the refresh accepted feeds derived metrics.
    return refreshSnapshot(
      deps,
      'sportsbook',
      league,
      (ctx) => source.fetchLeague(league, ctx),
      (d, published) => source.accept?.(d, published),
    );
  };
}
