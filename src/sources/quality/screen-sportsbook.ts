/**
 * Item-level quality of a league snapshot (the gate's first pass, before the snapshot-level loss
 * checks in sportsbook.ts), per book and game:
 * - spreads not opposite (-4.5 on both sides), or over and under at different totals: that
 *   market's two lines are dropped;
 * - moneylines whose implied probabilities sum outside [minOverround, maxOverround] (+400 on both
 *   sides): the moneylines are dropped;
 * - a moneyline favourite (margin removed, at least `favouriteShare`) receiving points on the
 *   spread: we cannot tell which is wrong, so both are dropped;
 * - a moneyline whose implied probability jumped more than `maxJump` since the last good snapshot
 *   is held at its last good value until the move has persisted `jumpHoldMs`;
 * - every line of the last good snapshot that is gone from a game not yet started is listed.
 * All class `inconsistent`, `held` or `lost`. Pure.
 */
import { americanToProbability } from '../../domain/odds.js';
import type { BookOdds, LeagueData, Matchup } from '../../model/index.js';
import type { Dropped } from './dropped.js';
import { heldSince, lostItems } from './carried.js';
import type { QualityOptions } from './options.js';
import { LINE_FIELDS, MONEYLINE_FIELDS } from './sportsbook.js';

const MONEYLINES = MONEYLINE_FIELDS;

/** The moneylines' implied probabilities, when both sides are quoted. */
function implied(b: BookOdds): number[] | undefined {
  if (b.homeMoneyline === undefined || b.awayMoneyline === undefined) return undefined;
  return [b.homeMoneyline, b.awayMoneyline, ...(b.drawMoneyline !== undefined ? [b.drawMoneyline] : [])].map(americanToProbability);
}

function without(b: BookOdds, fields: readonly (keyof BookOdds)[]): BookOdds {
  const out = { ...b };
  for (const f of fields) delete out[f];
  return out;
}

/** One book's lines with contradictions removed; the reasons go to `dropped`. */
function consistentBook(game: Matchup, b: BookOdds, opts: QualityOptions, dropped: Dropped[]): BookOdds {
  const id = `${game.id}/${b.operatorId}`;
  let out = b;
  const drop = (what: string, fields: readonly (keyof BookOdds)[], reason: string) => {
    dropped.push({ id: `${id}/${what}`, reason, class: 'inconsistent' });
    out = without(out, fields);
  };
  if (out.homeSpread && out.awaySpread && out.homeSpread.point + out.awaySpread.point !== 0) {
    drop('spreads', ['homeSpread', 'awaySpread'], `spreads ${out.homeSpread.point} / ${out.awaySpread.point} not opposite`);
  }
  if (out.totalOver && out.totalUnder && out.totalOver.point !== out.totalUnder.point) {
    drop('totals', ['totalOver', 'totalUnder'], `over ${out.totalOver.point} and under ${out.totalUnder.point} at different totals`);
  }
  const p = implied(out);
  const sum = p?.reduce((a, x) => a + x, 0);
  if (p && sum !== undefined && (sum < opts.minOverround || sum > opts.maxOverround)) {
    drop('h2h', MONEYLINES, `moneylines imply ${Math.round(sum * 100)} % in all (outside ${Math.round(opts.minOverround * 100)}-${Math.round(opts.maxOverround * 100)} %)`);
  } else if (p && sum !== undefined && out.homeSpread && out.awaySpread) {
    const [home, away] = [p[0]! / sum, p[1]! / sum];
    const favouriteGetsPoints = (home >= opts.favouriteShare && out.homeSpread.point > 0) || (away >= opts.favouriteShare && out.awaySpread.point > 0);
    if (favouriteGetsPoints) {
      drop('h2h+spreads', [...MONEYLINES, 'homeSpread', 'awaySpread'], `moneyline favourite (${Math.round(Math.max(home, away) * 100)} %) receives points on the spread (${out.homeSpread.point} / ${out.awaySpread.point})`);
    }
  }
  return out;
}

/** `next` with contradictions dropped and implausible moneyline jumps held; what was dropped, held or lost. */
export function screenLeague(prev: LeagueData | undefined, next: LeagueData, now: Date, opts: QualityOptions, carried: readonly Dropped[]): { data: LeagueData; dropped: Dropped[] } {
  const dropped: Dropped[] = [];
  const before = new Map<string, BookOdds>();
  for (const m of prev?.upcoming ?? []) for (const b of m.books) before.set(`${m.id}/${b.operatorId}`, b);
  const upcoming = next.upcoming.map((m) => ({
    ...m,
    books: m.books.map((raw) => {
      const b = consistentBook(m, raw, opts, dropped);
      const id = `${m.id}/${b.operatorId}/h2h`;
      const was = before.get(`${m.id}/${b.operatorId}`);
      const jump = MONEYLINES.some((f) => b[f] !== undefined && was?.[f] !== undefined && Math.abs(americanToProbability(b[f]) - americanToProbability(was[f])) > opts.maxJump);
      if (!jump || !was) return b;
      const since = heldSince(carried, id, now);
      if (now.getTime() - since.getTime() >= opts.jumpHoldMs) return b;
      const show = (x: BookOdds) => MONEYLINES.flatMap((f) => (x[f] !== undefined ? [x[f]] : [])).join('/');
      dropped.push({ id, reason: `moneylines ${show(was)} → ${show(b)}: held at ${show(was)}`, class: 'held', since: since.toISOString() });
      const held: BookOdds = without(b, MONEYLINES);
      for (const f of MONEYLINES) if (was[f] !== undefined) held[f] = was[f];
      return held;
    }),
  }));
  const lineIds = (ms: readonly Matchup[]) => {
    const out = new Map<string, string>();
    for (const m of ms) for (const b of m.books) for (const f of LINE_FIELDS) if (b[f] !== undefined) out.set(`${m.id}/${b.operatorId}/${f}`, m.scheduledTime);
    return out;
  };
  dropped.push(...lostItems(lineIds(prev?.upcoming ?? []), new Set(lineIds(upcoming).keys()), carried, now));
  return { data: { ...next, upcoming }, dropped };
}
