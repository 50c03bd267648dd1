/**
 * Snapshot-level quality of a league snapshot (contradictions within one book were screened
 * before, screen-sportsbook.ts): losses against the last good snapshot (games that started since
 * are expected to go): too many games or operators, and,
 * on the games both list, an operator that vanishes from all of them or loses too many of its lines
 * (a bookmaker dropped as malformed, spreads and totals missing from a response). Pure.
 */
import type { BookOdds, LeagueData, Matchup } from '../../model/index.js';
import { lossViolation, type QualityOptions } from './options.js';

/** Violations, empty when `next` may be published. */
export function checkLeague(prev: LeagueData | undefined, next: LeagueData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  if (!prev) return out;
  const t = now.getTime();
  const live = prev.upcoming.filter((m) => Date.parse(m.scheduledTime) > t);
  const ids = new Set(next.upcoming.map((m) => m.id));
  const games = lossViolation(
    'upcoming games',
    live.length,
    live.filter((m) => ids.has(m.id)).length,
    opts.maxLossShare,
  );
  if (games) out.push(games);
  const ops = (ms: LeagueData['upcoming']) => new Set(ms.flatMap((m) => m.books.map((b) => b.operatorId)));
  const before = ops(live);
  const after = ops(next.upcoming);
  const operators = lossViolation(
    'operators',
    before.size,
    [...before].filter((o) => after.has(o)).length,
    opts.maxLossShare,
  );
  if (operators) out.push(operators);
  // Per operator, on the games still listed: the lines it quoted before against now.
  const kept = live.filter((m) => ids.has(m.id));
  const linesBefore = linesByOperator(kept);
  const keptIds = new Set(kept.map((m) => m.id));
  const linesAfter = linesByOperator(next.upcoming.filter((m) => keptIds.has(m.id)));
  for (const [op, n] of linesBefore) {
    const now = linesAfter.get(op) ?? 0;
    if (now === 0) out.push(`operator ${op} vanished (quoted ${n} lines on games still listed, now none)`);
    else {
      const v = lossViolation(`${op} lines`, n, now, opts.maxLossShare);
      if (v) out.push(v);
    }
  }
  return out;
}

/** A book's lines with a point (each spread side and total side). */
export const POINT_FIELDS = ['homeSpread', 'awaySpread', 'totalOver', 'totalUnder'] as const satisfies ReadonlyArray<
  keyof BookOdds
>;
/** A book's moneylines. */
export const MONEYLINE_FIELDS = ['homeMoneyline', 'awayMoneyline', 'drawMoneyline'] as const satisfies ReadonlyArray<
  keyof BookOdds
>;
/** Every line a book may quote. */
export const LINE_FIELDS = [...POINT_FIELDS, ...MONEYLINE_FIELDS] as const;

/** Lines quoted per operator over `games` (each spread side, total side and moneyline counts one). */
function linesByOperator(games: readonly Matchup[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of games) {
    for (const b of m.books)
      out.set(b.operatorId, (out.get(b.operatorId) ?? 0) + LINE_FIELDS.filter((f) => b[f] !== undefined).length);
  }
  return out;
}
