/**
 * Identity memory of games (docs/sources.md, invariant 3). A game id names one game: its two teams,
 * which of them is at home, its start and, before it starts, which side the books favour. The last
 * good snapshot remembers them; a refresh that changes one of them (home and away swapped, another
 * team under the id, the start moved to another day, every book's favourite flipped) is refused
 * for that game, whose last good version stays, and reported (class `identity`) until the game
 * starts or the feed agrees again. The same game listed under two ids (same teams, same start) is
 * kept once. Pure.
 */
import { foldName } from '../../domain/text.js';
import type { LeagueData, Matchup } from '../../model/index.js';
import type { Dropped } from './dropped.js';
import { median, noVig } from './consensus.js';

/**
 * A start moved by more than this is another game under the id (a postponement or a wrong event):
 * a game re-timed within its day (a TV slot) is the same game.
 */
export const MAX_START_SHIFT_MS = 12 * 3_600_000;

/**
 * The favourite has changed sides when the books' median no-vig chance of the home side crosses
 * from at least 0.5 + this to at most 0.5 - this (or back): near pick'em the favourite may swap on
 * an ordinary move, five points either side is news or a relabelled market.
 */
export const FAVOURITE_MARGIN = 0.05;

/** Two games within this of each other with the same two teams are one game listed twice (no league plays the same opponent twice in 36 h). */
const SAME_GAME_WINDOW_MS = 36 * 3_600_000;

// Each snapshot's team names by code, made once per snapshot object.
const names = new WeakMap<LeagueData, Map<string, string>>();

/** A game's team names by side, from the snapshot's teams (codes derived for unknown teams may differ between runs; names do not). */
function sides(data: LeagueData, m: Matchup): { home: string; away: string } {
  let byCode = names.get(data);
  if (!byCode) names.set(data, (byCode = new Map(data.teams.map((t) => [t.code, t.name]))));
  return { home: byCode.get(m.homeCode) ?? m.homeCode, away: byCode.get(m.awayCode) ?? m.awayCode };
}

const same = (a: string, b: string) => foldName(a) === foldName(b);

/** The books' median no-vig chance of the home side, when at least one book quotes both moneylines. */
export function consensusHome(m: Matchup): number | undefined {
  const home = m.books.flatMap((b) => {
    const p = noVig(b);
    return p ? [p[0]!] : [];
  });
  return home.length > 0 ? median(home) : undefined;
}

/** How `next` changed what game `prev` (the same id, in the last good snapshot) was, or undefined. */
export function identityChange(
  prevData: LeagueData,
  prev: Matchup,
  nextData: LeagueData,
  next: Matchup,
): string | undefined {
  const was = sides(prevData, prev);
  const now = sides(nextData, next);
  if (same(was.home, now.away) && same(was.away, now.home))
    return `home and away swapped (was ${was.away} at ${was.home})`;
  if (!same(was.home, now.home) || !same(was.away, now.away))
    return `teams changed from ${was.away} at ${was.home} to ${now.away} at ${now.home}`;
  if (Math.abs(Date.parse(next.scheduledTime) - Date.parse(prev.scheduledTime)) > MAX_START_SHIFT_MS)
    return `start moved from ${prev.scheduledTime} to ${next.scheduledTime}`;
  return undefined;
}

/** Whether the books' favourite changed sides between `prev` and `next`, as a reason. */
export function favouriteFlip(prev: Matchup, next: Matchup): string | undefined {
  const [was, now] = [consensusHome(prev), consensusHome(next)];
  if (was === undefined || now === undefined) return undefined;
  const flipped =
    (was >= 0.5 + FAVOURITE_MARGIN && now <= 0.5 - FAVOURITE_MARGIN) ||
    (was <= 0.5 - FAVOURITE_MARGIN && now >= 0.5 + FAVOURITE_MARGIN);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return flipped
    ? `favourite changed sides: the books' no-vig chance of the home side went from ${r(was)} to ${r(now)}`
    : undefined;
}

const newest = (m: Matchup) => Math.max(0, ...m.books.map((b) => Date.parse(b.lastUpdate)));

/**
 * `data`'s games with each real game once: two ids with the same two teams starting within 36 h
 * are one game listed twice. The copy the last good snapshot knows (`known`) is kept, else the one
 * with the freshest book; the other is reported (class `duplicate`).
 */
export function sameGameOnce(
  data: LeagueData,
  known: ReadonlySet<string>,
): { upcoming: Matchup[]; dropped: Dropped[] } {
  const dropped: Dropped[] = [];
  const gone = new Set<string>();
  // Only games of the same two teams are compared: a league's list has few of those.
  const byTeams = new Map<string, Matchup[]>();
  for (const m of data.upcoming) {
    const key = Object.values(sides(data, m)).map(foldName).sort().join(' v ');
    byTeams.set(key, [...(byTeams.get(key) ?? []), m]);
  }
  for (const group of byTeams.values())
    for (const [i, a] of group.entries()) {
      for (const b of group.slice(i + 1)) {
        if (
          gone.has(a.id) ||
          gone.has(b.id) ||
          Math.abs(Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime)) > SAME_GAME_WINDOW_MS
        )
          continue;
        const keepA = known.has(a.id) !== known.has(b.id) ? known.has(a.id) : newest(a) >= newest(b);
        const [kept, other] = keepA ? [a, b] : [b, a];
        gone.add(other.id);
        const { home, away } = sides(data, kept);
        dropped.push({
          id: other.id,
          reason: `the same game as ${kept.id} (${away} at ${home}, starting ${other.scheduledTime}): kept ${kept.id}, ${known.has(kept.id) ? 'the id the last good snapshot knows' : 'the one with the freshest book'}`,
          class: 'duplicate',
        });
      }
    }
  return { upcoming: data.upcoming.filter((m) => !gone.has(m.id)), dropped };
}
