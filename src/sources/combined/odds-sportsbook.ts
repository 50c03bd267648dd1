/**
 * The real sportsbook source: The Odds API for the bookmakers, optionally Kalshi's game-winner
 * contracts beside them, and finished games from /scores graded against the consensus line of the
 * last accepted snapshot before kick-off. Lines and graded games live in a LeagueMemory (Redis in the worker), so a
 * restart forgets neither.
 *
 * Every odds call costs quota, so a league's odds are called at most once per interval, failed
 * calls included: the interval is `minIntervalMs`, or longer when the monthly budget needs it
 * (pacing.ts). In between, a refresh gets the last good odds re-filtered to games not yet started,
 * or, after a failed call, fails without calling. When Kalshi fails, the odds already bought are
 * kept for the next refresh, not bought again. Scores are fetched at most once per `scoresIntervalMs`.
 */
import type { Logger } from '../../log.js';
import type { FinishedGame, League, LeagueData, Matchup } from '../../model/index.js';
import { LEAGUES } from '../../model/index.js';
import { oddsCreditsRemaining } from '../../metrics/sources.js';
import { QuotaExhaustedError, UpstreamBackoffError } from '../http/errors.js';
import { reportDropped } from '../http/parse.js';
import type { KalshiClient } from '../kalshi/client.js';
import { addKalshiGameOdds, KALSHI_GAME_SERIES } from '../kalshi/games.js';
import { normalizeKalshiMarkets } from '../kalshi/normalize.js';
import type { OddsApiClient } from '../odds-api/client.js';
import { SPORT_KEYS, TeamResolver } from '../odds-api/mapping.js';
import { normalizeOdds } from '../odds-api/normalize.js';
import { pacedIntervalMs } from '../odds-api/pacing.js';
import { consensusLine, normalizeScores, type ClosingLine } from '../odds-api/scores.js';
import { processMemory, type LeagueMemory } from './league-memory.js';
import type { FetchContext, SportsbookSource } from '../source.js';

export interface OddsSportsbookOptions {
  odds: OddsApiClient;
  /** When set, Kalshi game contracts are priced into the matrix. */
  kalshi?: KalshiClient;
  log?: Logger;
  minIntervalMs?: number;
  /** ODDS_API_MONTHLY_CREDITS: spend is paced so this lasts the month. */
  monthlyCredits?: number;
  scoresIntervalMs?: number;
  /** Where closing lines and graded games are kept between runs (default: this process only). */
  memory?: LeagueMemory;
}

/** A sportsbook source that remembers its last accepted leagues (for metrics). */
export interface OddsSportsbookSource extends SportsbookSource {
  lastLeagues(): readonly LeagueData[];
  /** The refresh published `data` (validated, through the quality gate): metrics may use it. */
  accept(data: LeagueData): void;
}

interface LeagueState {
  teams: TeamResolver;
  /** Last consensus line per upcoming game id, from snapshots the refresh accepted. */
  closing: Map<string, ClosingLine>;
  finished: Map<string, FinishedGame>;
  /** When the odds were last called (success or not), and the games of the last good call. */
  oddsCalledAt?: number;
  odds?: { at: number; games: Matchup[] };
  /** The games with Kalshi's rows added, for the odds call at `oddsAt`. */
  upcoming?: { oddsAt: number; matchups: Matchup[] };
  scoresAt?: number;
  /** The last fetch, and the last one a refresh accepted. */
  pending?: LeagueData;
  last?: LeagueData;
  /** What was last saved to memory, to save only on change. */
  saved?: string;
}

// Enough for a season of any of the four leagues; older games drop off first.
const MAX_FINISHED = 1_500;

/** Creates the odds-provider sportsbook source. */
export function createOddsSportsbookSource(opts: OddsSportsbookOptions): OddsSportsbookSource {
  const minInterval = opts.minIntervalMs ?? 0;
  const scoresInterval = opts.scoresIntervalMs ?? 600_000;
  const memory = opts.memory ?? processMemory();
  const states = new Map<League, LeagueState>();
  const stateOf = async (league: League): Promise<LeagueState> => {
    let s = states.get(league);
    if (!s) {
      const remembered = await memory.load(league);
      // One resolver per league for the process: codes derived for unknown teams stay stable.
      s = {
        teams: new TeamResolver(league),
        closing: new Map(Object.entries(remembered?.closing ?? {})),
        finished: new Map((remembered?.finished ?? []).map((g) => [g.id, g])),
      };
      s.saved = remembered && JSON.stringify(remembered);
      states.set(league, s);
    }
    return s;
  };

  async function remember(league: League, s: LeagueState, finished: FinishedGame[]): Promise<void> {
    const remembered = { closing: Object.fromEntries(s.closing), finished };
    const json = JSON.stringify(remembered);
    if (json === s.saved) return;
    try {
      await memory.save(league, remembered);
      s.saved = json;
    } catch (err) {
      // The refresh itself succeeded; saving is retried on the next one.
      opts.log?.warn({ league, err: err instanceof Error ? err.message : String(err) }, 'could not save closing lines');
    }
  }

  /** The league's odds: bought at most once per interval; a failed call also waits the interval out. */
  async function oddsGames(league: League, s: LeagueState, ctx: FetchContext): Promise<{ at: number; games: Matchup[] }> {
    const t = ctx.now.getTime();
    const interval = Math.max(
      minInterval,
      pacedIntervalMs({ now: ctx.now, quota: opts.odds.quota.snapshot(), leagues: LEAGUES.length, defaultCost: 3, ...(opts.monthlyCredits !== undefined ? { monthlyCredits: opts.monthlyCredits } : {}) }),
    );
    // A spent quota says more than the interval does (and calls nothing either).
    const spent = opts.odds.quota.blockedUntil(ctx.now);
    if (spent) throw new QuotaExhaustedError('odds-api', spent);
    if (s.oddsCalledAt !== undefined && t - s.oddsCalledAt < interval) {
      if (s.odds?.at === s.oddsCalledAt) return s.odds;
      throw new UpstreamBackoffError('odds-api', new Date(s.oddsCalledAt + interval), 'last odds call failed; minimum interval until');
    }
    s.oddsCalledAt = t;
    const raw = await opts.odds.odds(SPORT_KEYS[league], ctx.signal);
    const remaining = opts.odds.quota.snapshot().remaining;
    if (remaining !== undefined) oddsCreditsRemaining.set(remaining);
    const { upcoming: games, dropped } = normalizeOdds(raw, { league, format: 'american', now: ctx.now, teams: s.teams });
    reportDropped(opts.log, 'odds-api', 'odds entries', dropped, ctx.dropped);
    s.odds = { at: t, games };
    return s.odds;
  }

  async function upcoming(league: League, s: LeagueState, ctx: FetchContext): Promise<Matchup[]> {
    const t = ctx.now.getTime();
    const odds = await oddsGames(league, s, ctx);
    if (s.upcoming?.oddsAt !== odds.at) {
      let matchups = odds.games;
      if (opts.kalshi && matchups.length > 0) {
        // A Kalshi failure fails this refresh, but the odds stay bought: the next one reuses them.
        const k = normalizeKalshiMarkets(await opts.kalshi.listMarkets({ series_ticker: KALSHI_GAME_SERIES[league], status: 'open' }, ctx.signal));
        reportDropped(opts.log, 'kalshi', 'game markets', k.dropped, ctx.dropped);
        matchups = addKalshiGameOdds(matchups, k.markets, s.teams.teams(), ctx.now);
      }
      s.upcoming = { oddsAt: odds.at, matchups };
    }
    return s.upcoming.matchups.filter((m) => Date.parse(m.scheduledTime) > t);
  }

  async function finished(league: League, s: LeagueState, ctx: FetchContext): Promise<FinishedGame[]> {
    const t = ctx.now.getTime();
    if (s.closing.size > 0 && (s.scoresAt === undefined || t - s.scoresAt >= scoresInterval)) {
      try {
        const r = normalizeScores(await opts.odds.scores(SPORT_KEYS[league], ctx.signal), s.closing, s.teams);
        reportDropped(opts.log, 'odds-api', 'scores', r.dropped);
        for (const g of r.finished) {
          s.finished.set(g.id, g);
          s.closing.delete(g.id);
        }
        s.scoresAt = t;
      } catch (err) {
        // Trends are secondary: a failed scores call must not cost the odds refresh.
        opts.log?.warn({ league, err: err instanceof Error ? err.message : String(err) }, 'odds-api scores failed; keeping the finished games we have');
      }
    }
    const all = [...s.finished.values()].sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime));
    for (const g of all.slice(0, Math.max(0, all.length - MAX_FINISHED))) s.finished.delete(g.id);
    return all.slice(-MAX_FINISHED);
  }

  return {
    name: opts.kalshi ? 'odds-api+kalshi' : 'odds-api',
    lastLeagues: () => [...states.values()].flatMap((s) => (s.last ? [s.last] : [])),
    accept: (data) => {
      const s = states.get(data.league);
      if (!s || s.pending !== data) return;
      s.last = data;
      // Closing lines come only from odds the gate let through: a refused response (books dropped,
      // lines missing) must not set the line a game is later graded against.
      for (const m of data.upcoming) {
        const line = consensusLine(m);
        if (line) s.closing.set(m.id, line);
      }
      void remember(data.league, s, data.finished);
    },
    async fetchLeague(league: League, ctx: FetchContext): Promise<LeagueData> {
      const s = await stateOf(league);
      const matchups = await upcoming(league, s, ctx);
      const done = await finished(league, s, ctx);
      await remember(league, s, done);
      const data: LeagueData = { league, teams: s.teams.teams(), finished: done, upcoming: matchups };
      s.pending = data;
      return data;
    },
  };
}
