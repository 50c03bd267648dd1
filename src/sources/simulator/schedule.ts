/**
 * Season schedules: a pure function of (seed, league, season start year), anchored to the real
 * calendar (NFL kicks off the Thursday after Labor Day, NBA in late October, college basketball in
 * early November, the Premier League in mid-August). Times are set in local time and converted
 * to UTC with each country's daylight-saving rule.
 */
import type { League } from '../../model/index.js';
import { addDays, isoDay, weekdayOnOrAfter } from './calendar.js';
import { createRng, key, shuffled } from './rng.js';
import { TEAMS } from './teams.js';

export interface ScheduledGame {
  id: string;
  time: Date;
  home: string;
  away: string;
}

/** US Eastern offset from UTC in hours: DST from the 2nd Sunday of March to the 1st of November. */
function easternOffset(localDay: Date): number {
  const y = localDay.getUTCFullYear();
  const start = addDays(weekdayOnOrAfter(y, 3, 1, 0), 7);
  const end = weekdayOnOrAfter(y, 11, 1, 0);
  return localDay >= start && localDay < end ? 4 : 5;
}

/** UK offset from UTC in hours: BST from the last Sunday of March to the last Sunday of October. */
function ukOffset(localDay: Date): number {
  const y = localDay.getUTCFullYear();
  const start = addDays(weekdayOnOrAfter(y, 4, 1, 0), -7);
  const end = addDays(weekdayOnOrAfter(y, 11, 1, 0), -7);
  return localDay >= start && localDay < end ? 1 : 0;
}

/** A game at a local day and minute of the day, in a zone given by its offset rule. */
function game(
  league: League,
  day: Date,
  minute: number,
  offset: (d: Date) => number,
  home: string,
  away: string,
): ScheduledGame {
  const time = new Date(day.getTime() + (minute + offset(day) * 60) * 60_000);
  const id = `${league.toLowerCase()}-${isoDay(day)}-${home.toLowerCase()}-${away.toLowerCase()}`;
  return { id, time, home, away };
}

/** Minutes of the day for a local clock time. */
const at = (h: number, m = 0): number => h * 60 + m;

/** When a league's season that starts in `year` opens (its first game day, local). */
export function seasonStart(league: League, year: number): Date {
  switch (league) {
    case 'NFL':
      return addDays(weekdayOnOrAfter(year, 9, 1, 1), 3);
    case 'NBA':
      return weekdayOnOrAfter(year, 10, 20, 2);
    case 'NCAAB':
      return weekdayOnOrAfter(year, 11, 2, 1);
    case 'EPL':
      // Friday night opener before the first full Saturday on or after 15 August.
      return addDays(weekdayOnOrAfter(year, 8, 15, 6), -1);
  }
}

const codes = (league: League): string[] => TEAMS[league].map((t) => t.code);

/**
 * Basketball: every day a varying number of games. Teams that have played least go first (with
 * some randomness), so schedules stay balanced like real ones: about every other day in the NBA.
 */
function basketball(seed: number, league: 'NBA' | 'NCAAB', year: number): ScheduledGame[] {
  const teams = codes(league);
  const days = league === 'NBA' ? 174 : 126;
  const [lo, hi] = league === 'NBA' ? [4, 11] : [3, 8];
  const tips =
    league === 'NBA'
      ? [at(19), at(19, 30), at(20), at(20, 30), at(21), at(22), at(22, 30)]
      : [at(18, 30), at(19), at(20), at(21), at(21, 30)];
  const start = seasonStart(league, year);
  const played = new Map<string, number>(teams.map((t) => [t, 0]));
  const out: ScheduledGame[] = [];
  for (let d = 0; d < days; d++) {
    const rng = createRng(key(seed, league, String(year), 'day', String(d)));
    const n = Math.min(Math.floor(teams.length / 2), d === 0 ? 2 : rng.int(lo, hi));
    const due = teams
      .map((t) => ({ t, w: (played.get(t) ?? 0) + rng.next() * 1.5 }))
      .sort((a, b) => a.w - b.w)
      .slice(0, 2 * n)
      .map((x) => x.t);
    const order = shuffled(due, rng);
    const day = addDays(start, d);
    for (let g = 0; g < n; g++) {
      const home = order[2 * g] as string;
      const away = order[2 * g + 1] as string;
      played.set(home, (played.get(home) ?? 0) + 1);
      played.set(away, (played.get(away) ?? 0) + 1);
      const tip = tips[Math.min(tips.length - 1, Math.floor((g * tips.length) / n))] as number;
      out.push(game(league, day, tip, easternOffset, home, away));
    }
  }
  return out;
}

// Teams on a bye per week (weeks 5-14): 32 teams, each rests once.
const NFL_BYES = [0, 0, 0, 0, 2, 4, 4, 4, 2, 4, 4, 2, 4, 2, 0, 0, 0, 0];

/** NFL: 18 weeks, Thursday night, Sunday early/late/night, Monday night. */
function football(seed: number, year: number): ScheduledGame[] {
  const teams = codes('NFL');
  const start = seasonStart('NFL', year);
  const byeOrder = shuffled(teams, createRng(key(seed, 'NFL', String(year), 'byes')));
  let byeAt = 0;
  const out: ScheduledGame[] = [];
  for (let w = 0; w < NFL_BYES.length; w++) {
    const resting = new Set(byeOrder.slice(byeAt, byeAt + (NFL_BYES[w] ?? 0)));
    byeAt += NFL_BYES[w] ?? 0;
    const rng = createRng(key(seed, 'NFL', String(year), 'week', String(w)));
    const order = shuffled(
      teams.filter((t) => !resting.has(t)),
      rng,
    );
    const n = order.length / 2;
    const thu = addDays(start, 7 * w);
    const sun = addDays(thu, 3);
    const mon = addDays(thu, 4);
    for (let g = 0; g < n; g++) {
      const home = order[2 * g] as string;
      const away = order[2 * g + 1] as string;
      // Slot by position: first game Thursday, last two Sunday and Monday night, then late Sunday.
      const slot: [Date, number] =
        g === 0
          ? [thu, at(20, 15)]
          : g === n - 1
            ? [mon, at(20, 15)]
            : g === n - 2
              ? [sun, at(20, 20)]
              : g >= n - 5
                ? [sun, at(16, 25)]
                : g >= n - 7
                  ? [sun, at(16, 5)]
                  : [sun, at(13)];
      out.push(game('NFL', slot[0], slot[1], easternOffset, home, away));
    }
  }
  return out;
}

// Matchweeks skipped for international breaks (after rounds 3, 7 and 11).
const EPL_BREAKS_AFTER = [3, 7, 11];
// Kick-off slots of a round, UK time: Friday night, Saturday, Sunday.
const EPL_SLOTS: readonly (readonly [number, number])[] = [
  [-1, at(20)],
  [0, at(12, 30)],
  [0, at(15)],
  [0, at(15)],
  [0, at(15)],
  [0, at(15)],
  [0, at(17, 30)],
  [1, at(14)],
  [1, at(14)],
  [1, at(16, 30)],
];

/** Premier League: a double round robin (circle method), one round per weekend. */
function premierLeague(seed: number, year: number): ScheduledGame[] {
  const teams = shuffled(codes('EPL'), createRng(key(seed, 'EPL', String(year), 'draw')));
  const n = teams.length;
  const firstSaturday = addDays(seasonStart('EPL', year), 1);
  const rounds: [string, string][][] = [];
  const fixed = teams[0] as string;
  const rot = teams.slice(1);
  for (let r = 0; r < n - 1; r++) {
    const pairs: [string, string][] = [];
    const other = rot[0] as string;
    pairs.push(r % 2 === 0 ? [fixed, other] : [other, fixed]);
    for (let i = 1; i < n / 2; i++) {
      const a = rot[i] as string;
      const b = rot[n - 1 - i] as string;
      pairs.push((r + i) % 2 === 0 ? [a, b] : [b, a]);
    }
    rounds.push(pairs);
    rot.unshift(rot.pop() as string);
  }
  // Second half: the same fixtures with home and away swapped.
  for (let r = 0; r < n - 1; r++) rounds.push((rounds[r] ?? []).map(([h, a]) => [a, h]));

  const out: ScheduledGame[] = [];
  let week = 0;
  rounds.forEach((pairs, r) => {
    if (EPL_BREAKS_AFTER.includes(r)) week++;
    const saturday = addDays(firstSaturday, 7 * week);
    const order = shuffled(pairs, createRng(key(seed, 'EPL', String(year), 'round', String(r))));
    order.forEach(([home, away], i) => {
      const [dayOffset, minute] = EPL_SLOTS[i % EPL_SLOTS.length] as readonly [number, number];
      out.push(game('EPL', addDays(saturday, dayOffset), minute, ukOffset, home, away));
    });
    week++;
  });
  return out;
}

/** Every game of a season, oldest first. */
export function seasonSchedule(seed: number, league: League, year: number): ScheduledGame[] {
  const games =
    league === 'NFL'
      ? football(seed, year)
      : league === 'EPL'
        ? premierLeague(seed, year)
        : basketball(seed, league, year);
  // Plain code-unit order on ties: localeCompare would depend on the host's ICU data.
  return games.sort((a, b) => a.time.getTime() - b.time.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The start year of the season in play at `now`: before this year's opener, last year's. */
export function seasonYearAt(league: League, now: Date): number {
  const y = now.getUTCFullYear();
  return now.getTime() >= seasonStart(league, y).getTime() ? y : y - 1;
}
