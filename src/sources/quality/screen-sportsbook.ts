/**
 * Item-level quality of a league snapshot (the gate's first pass, before the snapshot-level loss
 * checks in sportsbook.ts), per game and book (docs/sources.md, by class and invariant):
 * - the same game under two ids (same teams and start) is kept once (`duplicate`, identity.ts);
 * - a game whose teams, home side or start changed against the last good snapshot, or whose books'
 *   favourite changed sides, keeps its last good version (`identity`, identity.ts);
 * - spreads not opposite (-4.5 on both sides), or over and under at different totals: that
 *   market's two lines are dropped (`inconsistent`);
 * - a total or a spread outside the league's range (a total of 2365): that market's lines (`range`);
 * - moneylines whose implied probabilities sum outside [minOverround, maxOverround] (+400 on both
 *   sides): the moneylines are dropped (`inconsistent`);
 * - a moneyline favourite (margin removed, at least `favouriteShare`) receiving points on the
 *   spread: we cannot tell which is wrong, so both are dropped (`inconsistent`);
 * - a book's moneylines, spread or total far from the other books' consensus: withheld (`outlier`,
 *   consensus.ts);
 * - a moneyline whose implied probability jumped more than `maxJump` since the last good snapshot
 *   is held at its last good value until the move has persisted `jumpHoldMs` (`held`);
 * - every line of the last good snapshot that is gone from a game not yet started is listed (`lost`).
 * Pure.
 */
import { americanToProbability } from '../../domain/odds.js';
import type { BookOdds, LeagueData, Matchup } from '../../model/index.js';
import type { Dropped } from './dropped.js';
import { heldSince, lostItems } from './carried.js';
import { impliedMoneylines, outliers, type BookMarket } from './consensus.js';
import { favouriteFlip, identityChange, sameGameOnce } from './identity.js';
import { LEAGUE_BOUNDS, type LeagueBounds } from './league-bounds.js';
import type { QualityOptions } from './options.js';
import { LINE_FIELDS, MONEYLINE_FIELDS } from './sportsbook.js';

const MONEYLINES = MONEYLINE_FIELDS;

/** The lines of each market a book may quote. */
const MARKET_FIELDS: Readonly<Record<BookMarket, readonly (keyof BookOdds)[]>> = {
  h2h: MONEYLINES,
  spreads: ['homeSpread', 'awaySpread'],
  totals: ['totalOver', 'totalUnder'],
};

function without(b: BookOdds, fields: readonly (keyof BookOdds)[]): BookOdds {
  const out = { ...b };
  for (const f of fields) delete out[f];
  return out;
}

/** One book's lines with contradictions and impossible points removed; the reasons go to `dropped`. */
function consistentBook(
  game: Matchup,
  b: BookOdds,
  bounds: LeagueBounds,
  opts: QualityOptions,
  dropped: Dropped[],
): BookOdds {
  const id = `${game.id}/${b.operatorId}`;
  let out = b;
  const drop = (
    what: string,
    fields: readonly (keyof BookOdds)[],
    reason: string,
    cls: 'inconsistent' | 'range' = 'inconsistent',
  ) => {
    dropped.push({ id: `${id}/${what}`, reason, class: cls });
    out = without(out, fields);
  };
  const outside = [out.totalOver, out.totalUnder].find(
    (l) => l && (l.point < bounds.total[0] || l.point > bounds.total[1]),
  );
  if (outside)
    drop(
      'totals',
      MARKET_FIELDS.totals,
      `total ${outside.point} outside the league's range ${bounds.total[0]}-${bounds.total[1]}`,
      'range',
    );
  const wide = [out.homeSpread, out.awaySpread].find((l) => l && Math.abs(l.point) > bounds.spread);
  if (wide)
    drop('spreads', MARKET_FIELDS.spreads, `spread ${wide.point} beyond the league's ±${bounds.spread}`, 'range');
  if (out.homeSpread && out.awaySpread && out.homeSpread.point + out.awaySpread.point !== 0) {
    drop('spreads', MARKET_FIELDS.spreads, `spreads ${out.homeSpread.point} / ${out.awaySpread.point} not opposite`);
  }
  if (out.totalOver && out.totalUnder && out.totalOver.point !== out.totalUnder.point) {
    drop(
      'totals',
      MARKET_FIELDS.totals,
      `over ${out.totalOver.point} and under ${out.totalUnder.point} at different totals`,
    );
  }
  const p = impliedMoneylines(out);
  const sum = p?.reduce((a, x) => a + x, 0);
  if (p && sum !== undefined && (sum < opts.minOverround || sum > opts.maxOverround)) {
    drop(
      'h2h',
      MONEYLINES,
      `moneylines imply ${Math.round(sum * 100)} % in all (outside ${Math.round(opts.minOverround * 100)}-${Math.round(opts.maxOverround * 100)} %)`,
    );
  } else if (p && sum !== undefined && out.homeSpread && out.awaySpread) {
    const [home, away] = [p[0]! / sum, p[1]! / sum];
    const favouriteGetsPoints =
      (home >= opts.favouriteShare && out.homeSpread.point > 0) ||
      (away >= opts.favouriteShare && out.awaySpread.point > 0);
    if (favouriteGetsPoints) {
      drop(
        'h2h+spreads',
        [...MONEYLINES, ...MARKET_FIELDS.spreads],
        `moneyline favourite (${Math.round(Math.max(home, away) * 100)} %) receives points on the spread (${out.homeSpread.point} / ${out.awaySpread.point})`,
      );
    }
  }
  return out;
}

/** `game` without its books' markets that stray from the other books' consensus; those are reported. */
function withoutOutliers(game: Matchup, bounds: LeagueBounds, opts: QualityOptions, dropped: Dropped[]): Matchup {
  const found = outliers(game, bounds, opts.maxConsensusGap);
  if (found.size === 0) return game;
  return {
    ...game,
    books: game.books.map((b) => {
      const markets = found.get(b.operatorId);
      if (!markets) return b;
      for (const [market, reason] of markets)
        dropped.push({ id: `${game.id}/${b.operatorId}/${market}`, reason, class: 'outlier' });
      return without(
        b,
        [...markets.keys()].flatMap((m) => MARKET_FIELDS[m]),
      );
    }),
  };
}

/** A book with its moneylines held at `was` while a jump has not persisted; the hold is reported. */
function heldJump(
  game: Matchup,
  b: BookOdds,
  was: BookOdds | undefined,
  now: Date,
  opts: QualityOptions,
  carried: readonly Dropped[],
  dropped: Dropped[],
): BookOdds {
  const id = `${game.id}/${b.operatorId}/h2h`;
  const jump = MONEYLINES.some(
    (f) =>
      b[f] !== undefined &&
      was?.[f] !== undefined &&
      Math.abs(americanToProbability(b[f]) - americanToProbability(was[f])) > opts.maxJump,
  );
  if (!jump || !was) return b;
  const since = heldSince(carried, id, now);
  if (now.getTime() - since.getTime() >= opts.jumpHoldMs) return b;
  const show = (x: BookOdds) => MONEYLINES.flatMap((f) => (x[f] !== undefined ? [x[f]] : [])).join('/');
  dropped.push({
    id,
    reason: `moneylines ${show(was)} → ${show(b)}: held at ${show(was)}`,
    class: 'held',
    since: since.toISOString(),
  });
  const held: BookOdds = without(b, MONEYLINES);
  for (const f of MONEYLINES) if (was[f] !== undefined) held[f] = was[f];
  return held;
}

/** `next` with contradictions dropped, outliers withheld, identity changes refused and implausible moneyline jumps held; what was dropped, held or lost. */
export function screenLeague(
  prev: LeagueData | undefined,
  next: LeagueData,
  now: Date,
  opts: QualityOptions,
  carried: readonly Dropped[],
): { data: LeagueData; dropped: Dropped[] } {
  const dropped: Dropped[] = [];
  const bounds = LEAGUE_BOUNDS[next.league];
  // What the last good snapshot remembers: the games not yet started, and each of their books.
  const remembered = new Map(
    (prev?.upcoming ?? []).filter((m) => Date.parse(m.scheduledTime) > now.getTime()).map((m) => [m.id, m]),
  );
  const before = new Map<string, BookOdds>();
  for (const m of remembered.values()) for (const b of m.books) before.set(`${m.id}/${b.operatorId}`, b);
  const once = sameGameOnce(next, new Set(remembered.keys()));
  dropped.push(...once.dropped);
  /** The last good version of a game whose identity changed, reported with the time it was first seen. */
  const refuse = (was: Matchup, reason: string): Matchup => {
    dropped.push({
      id: was.id,
      reason: `${reason}: last good version kept`,
      class: 'identity',
      since: heldSince(carried, was.id, now, 'identity').toISOString(),
    });
    return was;
  };
  const upcoming = once.upcoming.map((raw): Matchup => {
    const was = remembered.get(raw.id);
    const changed = was && identityChange(prev!, was, next, raw);
    if (was && changed) return refuse(was, changed);
    const consistent = { ...raw, books: raw.books.map((b) => consistentBook(raw, b, bounds, opts, dropped)) };
    const m = withoutOutliers(consistent, bounds, opts, dropped);
    const flipped = was && favouriteFlip(was, m);
    if (was && flipped) return refuse(was, flipped);
    return {
      ...m,
      books: m.books.map((b) => heldJump(m, b, before.get(`${m.id}/${b.operatorId}`), now, opts, carried, dropped)),
    };
  });
  const lineIds = (ms: readonly Matchup[]) => {
    const out = new Map<string, string>();
    for (const m of ms)
      for (const b of m.books)
        for (const f of LINE_FIELDS) if (b[f] !== undefined) out.set(`${m.id}/${b.operatorId}/${f}`, m.scheduledTime);
    return out;
  };
  dropped.push(...lostItems(lineIds(prev?.upcoming ?? []), new Set(lineIds(upcoming).keys()), carried, now));
  return { data: { ...next, upcoming }, dropped };
}
