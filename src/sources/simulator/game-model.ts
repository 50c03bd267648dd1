/**
 * Game models: what a game is expected to look like (margin and total for US sports, goal rates
 * for football), the market's drifting view of it, fair probabilities for each bet, and final
 * scores. Team strength is fixed per season; the market view wanders around it over time.
 */
import type { League } from '../../model/index.js';
import { drift, LINE_OCTAVES } from './drift.js';
import { createRng, key, type Rng } from './rng.js';
import { normalCdf, poissonPmf } from './stats.js';

interface PointsLeague {
  kind: 'points';
  /** Spread of team ratings, points per game. */
  ratingSd: number;
  homeAdv: number;
  /** Spread of the final margin around its expectation. */
  marginSd: number;
  baseTotal: number;
  paceSd: number;
  totalSd: number;
  /** How far the market's margin and total wander, points. */
  marginDrift: number;
  totalDrift: number;
}

interface GoalsLeague {
  kind: 'goals';
  ratingSd: number;
  homeGoals: number;
  awayGoals: number;
  /** Market wander of the log goal rates. */
  rateDrift: number;
}

/** Scoring and market parameters per league (points sports vs goals). */
export const LEAGUE_MODELS: Readonly<Record<League, PointsLeague | GoalsLeague>> = {
  NBA: {
    kind: 'points',
    ratingSd: 5,
    homeAdv: 2.5,
    marginSd: 12,
    baseTotal: 226,
    paceSd: 4,
    totalSd: 18,
    marginDrift: 1.2,
    totalDrift: 2.5,
  },
  NCAAB: {
    kind: 'points',
    ratingSd: 5.5,
    homeAdv: 3.5,
    marginSd: 10.5,
    baseTotal: 146,
    paceSd: 4,
    totalSd: 15,
    marginDrift: 1.2,
    totalDrift: 2,
  },
  NFL: {
    kind: 'points',
    ratingSd: 4.5,
    homeAdv: 1.8,
    marginSd: 13,
    baseTotal: 44.5,
    paceSd: 2.5,
    totalSd: 13,
    marginDrift: 1,
    totalDrift: 1.2,
  },
  EPL: { kind: 'goals', ratingSd: 0.3, homeGoals: 1.5, awayGoals: 1.2, rateDrift: 0.08 },
};

type Rating = { rating: number; pace: number };
const ratingCache = new Map<string, Rating>();

/** A team's seeded strength and pace for one season, in standard units (memoized: hot path). */
export function teamRating(seed: number, league: League, season: number, code: string): Rating {
  const k = `${seed}|${league}|${season}|${code}`;
  let r = ratingCache.get(k);
  if (!r) {
    // Bounded: a long-running process only ever needs a few seasons' worth.
    if (ratingCache.size > 4096) ratingCache.clear();
    const rng = createRng(key(seed, league, String(season), code, 'team'));
    r = { rating: rng.normal(), pace: rng.normal() };
    ratingCache.set(k, r);
  }
  return r;
}

/** Fair probabilities for the bets a book prices. */
export interface GameView {
  /**
   * Fair probability of the home side's handicap bet at `line` (e.g. -4.5): the break-even
   * probability with pushes removed and a quarter line staked half on each neighbouring line.
   */
  homeCovers(line: number): number;
  /** Probability the total goes over a line, on the same terms. */
  over(line: number): number;
  /** Win probabilities; for football the draw is the third outcome (they sum to 1 with `draw`). */
  homeWins: number;
  awayWins: number;
  /** Probability of a draw: 0 where games never end level (overtime decides). */
  draw: number;
  /** Line steps: 0.5 points; 0.25 goals (Asian quarter lines). */
  spreadStep: number;
  /** The smallest handicap hung: 1 point in US sports (±0.5 is the moneyline); 0 for football. */
  minSpread: number;
  /** The expected home margin, for picking a line. */
  margin: number;
  total: number;
}

/** Wins and losses of a bet over a distribution of `value - offset`, pushes left out. */
function winLoss(dist: Float64Array, offset: number, line: number): { w: number; l: number } {
  let w = 0;
  let l = 0;
  for (let i = 0; i < dist.length; i++) {
    const s = i - offset + line;
    if (s > 0) w += dist[i] as number;
    else if (s < 0) l += dist[i] as number;
  }
  return { w, l };
}

/**
 * The break-even probability of a handicap bet (home side when `sign` is 1) at `line`: W / (W + L).
 * A quarter line is half a stake on each neighbouring line, so the halves' wins and losses add up
 * (-0.25 pays H / (H + D/2 + A) in a three-way market); a push returns the stake and drops out.
 */
function coverShare(dist: Float64Array, offset: number, line: number): number {
  const halves = Math.abs(line * 4) % 2 === 1 ? [line - 0.25, line + 0.25] : [line];
  let w = 0;
  let l = 0;
  for (const h of halves) {
    const r = winLoss(dist, offset, h);
    w += r.w;
    l += r.l;
  }
  return w / (w + l);
}

/**
 * US sports: final margins are integers and never level (overtime decides), so the margin is the
 * normal rounded to an integer with the tie's mass shared between +1 and -1.
 */
function pointsView(m: number, t: number, lg: PointsLeague): GameView {
  const reach = Math.ceil(Math.abs(m) + 6 * lg.marginSd);
  const dist = new Float64Array(2 * reach + 1);
  for (let k = -reach; k <= reach; k++) {
    dist[k + reach] = normalCdf((k + 0.5 - m) / lg.marginSd) - normalCdf((k - 0.5 - m) / lg.marginSd);
  }
  const tie = dist[reach] as number;
  dist[reach] = 0;
  dist[reach + 1] = (dist[reach + 1] as number) + tie / 2;
  dist[reach - 1] = (dist[reach - 1] as number) + tie / 2;
  let homeWins = 0;
  for (let k = 1; k <= reach; k++) homeWins += dist[reach + k] as number;
  let sum = 0;
  for (const x of dist) sum += x;
  return {
    homeCovers: (line) => coverShare(dist, reach, line),
    over: (line) => 1 - normalCdf((line - t) / lg.totalSd),
    homeWins: homeWins / sum,
    awayWins: 1 - homeWins / sum,
    draw: 0,
    spreadStep: 0.5,
    minSpread: 1,
    margin: m,
    total: t,
  };
}

// Nine goals a side covers all but a negligible tail at Premier League scoring rates.
const MAX_GOALS = 9;
const SPAN = 2 * MAX_GOALS + 1;

function goalsView(lh: number, la: number): GameView {
  const ph = poissonPmf(lh, MAX_GOALS);
  const pa = poissonPmf(la, MAX_GOALS);
  // Goal difference (index d + MAX_GOALS) and total goals (index t).
  const diff = new Float64Array(SPAN);
  const tot = new Float64Array(SPAN);
  let mass = 0;
  for (let h = 0; h <= MAX_GOALS; h++) {
    for (let a = 0; a <= MAX_GOALS; a++) {
      const p = (ph[h] as number) * (pa[a] as number);
      diff[h - a + MAX_GOALS] = (diff[h - a + MAX_GOALS] as number) + p;
      tot[h + a] = (tot[h + a] as number) + p;
      mass += p;
    }
  }
  let homeWins = 0;
  let awayWins = 0;
  for (let d = 1; d <= MAX_GOALS; d++) {
    homeWins += diff[MAX_GOALS + d] as number;
    awayWins += diff[MAX_GOALS - d] as number;
  }
  return {
    // Home covers when goal difference + line > 0; the over wins when total - line > 0.
    homeCovers: (line) => coverShare(diff, MAX_GOALS, line),
    over: (line) => coverShare(tot, 0, -line),
    // Shares of the truncated grid, so the three outcomes sum to exactly 1.
    homeWins: homeWins / mass,
    awayWins: awayWins / mass,
    draw: (diff[MAX_GOALS] as number) / mass,
    spreadStep: 0.25,
    minSpread: 0,
    margin: lh - la,
    total: lh + la,
  };
}

/** The teams' true expectation for a game: no market noise. */
function truth(seed: number, league: League, season: number, home: string, away: string): { a: number; b: number } {
  const lg = LEAGUE_MODELS[league];
  const h = teamRating(seed, league, season, home);
  const w = teamRating(seed, league, season, away);
  if (lg.kind === 'points') {
    const margin = (h.rating - w.rating) * lg.ratingSd + lg.homeAdv;
    const total = lg.baseTotal + (h.pace + w.pace) * lg.paceSd;
    return { a: margin, b: total };
  }
  const d = (h.rating - w.rating) * lg.ratingSd;
  return { a: Math.log(lg.homeGoals) + d / 2, b: Math.log(lg.awayGoals) - d / 2 };
}

/**
 * How a market (or one book, through `bias`) sees a game at time tSec. `bias` shifts the margin
 * in points, or the log goal rates, so books disagree a little.
 */
export function marketView(
  seed: number,
  league: League,
  season: number,
  gameId: string,
  home: string,
  away: string,
  tSec: number,
  bias = 0,
): GameView {
  const lg = LEAGUE_MODELS[league];
  const base = truth(seed, league, season, home, away);
  const km = key(seed, gameId, 'market-margin');
  const kt = key(seed, gameId, 'market-total');
  if (lg.kind === 'points') {
    const m = base.a + drift(km, tSec, LINE_OCTAVES) * lg.marginDrift + bias;
    const t = base.b + drift(kt, tSec, LINE_OCTAVES) * lg.totalDrift + bias * 0.8;
    return pointsView(m, t, lg);
  }
  const dm = drift(km, tSec, LINE_OCTAVES) * lg.rateDrift + bias;
  const dt = drift(kt, tSec, LINE_OCTAVES) * lg.rateDrift * 0.5;
  return goalsView(Math.exp(base.a + dm + dt), Math.exp(base.b - dm + dt));
}

/**
 * The home handicap nearest an even bet, on the moneyline favourite's side: the favourite gives
 * the points, so a spread never contradicts the moneyline. US sports hang no line under 1 point
 * (with integer margins and no ties, 0 and ±0.5 are just the moneyline); football may hang a
 * level line (Asian handicap 0, "draw no bet").
 */
export function spreadLine(v: GameView): number {
  const step = v.spreadStep;
  // +1: home gives points (line <= 0); -1: away does.
  const favourite = v.homeWins >= v.awayWins ? 1 : -1;
  const allowed = (line: number) => Math.abs(line) >= v.minSpread && (line === 0 || Math.sign(line) === -favourite);
  let best = -favourite * Math.max(step, v.minSpread);
  let bestGap = Math.abs(v.homeCovers(best) - 0.5);
  const centre = Math.round(-v.margin / step) * step;
  for (let i = -4; i <= 4; i++) {
    const line = centre + i * step;
    if (!allowed(line)) continue;
    const gap = Math.abs(v.homeCovers(line) - 0.5);
    if (gap < bestGap) {
      best = line;
      bestGap = gap;
    }
  }
  // Avoid -0, which would not survive JSON or deep equality unchanged.
  return best === 0 ? 0 : best;
}

/** The total line nearest an even bet: half points; quarter goals for football (2.5 is typical). */
export function totalLine(v: GameView): number {
  if (v.spreadStep < 0.5) {
    let best = 2.5;
    for (let line = 1.5; line <= 4.5; line += 0.25) {
      if (Math.abs(v.over(line) - 0.5) < Math.abs(v.over(best) - 0.5)) best = line;
    }
    return best;
  }
  return Math.round(v.total * 2) / 2;
}

/** Final score from the true expectation plus seeded noise; US sports never end level. */
export function finalScore(
  seed: number,
  league: League,
  season: number,
  gameId: string,
  home: string,
  away: string,
): { home: number; away: number } {
  const lg = LEAGUE_MODELS[league];
  const base = truth(seed, league, season, home, away);
  const rng = createRng(key(seed, gameId, 'score'));
  if (lg.kind === 'goals') {
    return { home: rng.poisson(Math.exp(base.a)), away: rng.poisson(Math.exp(base.b)) };
  }
  if (league === 'NFL') return footballScore(base.a, base.b, rng);
  const margin = base.a + rng.normal() * lg.marginSd;
  const total = base.b + rng.normal() * lg.totalSd * 0.8;
  let h = Math.max(40, Math.round((total + margin) / 2));
  let a = Math.max(40, Math.round((total - margin) / 2));
  while (h === a) {
    // Overtime: five more minutes, until someone leads.
    const ot = league === 'NBA' ? 11 : 8;
    h += Math.max(0, Math.round(ot + rng.normal() * 3));
    a += Math.max(0, Math.round(ot + rng.normal() * 3));
  }
  return { home: h, away: a };
}

/** NFL points come in touchdowns and field goals, so scores look like 24-17, not 23-18. */
function footballScore(margin: number, total: number, rng: Rng): { home: number; away: number } {
  const side = (expected: number): number => {
    const fgs = rng.poisson(1.6);
    const tds = rng.poisson(Math.max(0.4, (expected - 4.8) / 7));
    let pts = fgs * 3;
    for (let i = 0; i < tds; i++) {
      const r = rng.next();
      pts += r < 0.05 ? 6 : r < 0.09 ? 8 : 7;
    }
    if (rng.next() < 0.03) pts += 2;
    return pts;
  };
  let h = side((total + margin) / 2);
  let a = side((total - margin) / 2);
  if (h === a) {
    // Overtime decides it (ties are rare enough to leave out).
    if (rng.next() < 0.5) h += rng.next() < 0.6 ? 3 : 6;
    else a += rng.next() < 0.6 ? 3 : 6;
  }
  return { home: h, away: a };
}
