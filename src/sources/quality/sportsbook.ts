/**
 * Quality checks of a league snapshot: contradictory lines within one book (a spread quoted with
 * the same sign on both sides, over and under at different totals), and too many games or
 * operators lost against the last good snapshot (games that started since are expected to go). Pure.
 */
import type { LeagueData } from '../../model/index.js';
import { lossViolation, type QualityOptions } from './options.js';

/** Violations, empty when `next` may be published. */
export function checkLeague(prev: LeagueData | undefined, next: LeagueData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  for (const mu of next.upcoming) {
    for (const b of mu.books) {
      if (b.homeSpread && b.awaySpread && b.homeSpread.point + b.awaySpread.point !== 0) {
        out.push(`${mu.id}: ${b.operatorId} spreads ${b.homeSpread.point} / ${b.awaySpread.point} contradict`);
      }
      if (b.totalOver && b.totalUnder && b.totalOver.point !== b.totalUnder.point) {
        out.push(`${mu.id}: ${b.operatorId} over ${b.totalOver.point} and under ${b.totalUnder.point} at different totals`);
      }
    }
  }
  if (!prev) return out;
  const t = now.getTime();
  const live = prev.upcoming.filter((m) => Date.parse(m.scheduledTime) > t);
  const ids = new Set(next.upcoming.map((m) => m.id));
  const games = lossViolation('upcoming games', live.length, live.filter((m) => ids.has(m.id)).length, opts.maxLossShare);
  if (games) out.push(games);
  const ops = (ms: LeagueData['upcoming']) => new Set(ms.flatMap((m) => m.books.map((b) => b.operatorId)));
  const before = ops(live);
  const after = ops(next.upcoming);
  const operators = lossViolation('operators', before.size, [...before].filter((o) => after.has(o)).length, opts.maxLossShare);
  if (operators) out.push(operators);
  return out;
}
