/**
 * The real sportsbook source: The Odds API for the bookmakers, optionally Kalshi's game-winner
 * contracts beside them, and finished games from /scores graded against the consensus line of the
 * last accepted snapshot before kick-off. Lines and graded games live in a LeagueMemory (Redis in the worker), so a
 * restart forgets neither.
 *
 * Every odds call costs quota, so a league's odds are called at most once per interval, failed
 * calls included: the interval is `minIntervalMs`, or longer when the monthly budget needs it
 * (pacing.ts). In between, a refresh gets the last good odds re-filtered to games not yet started,
 * or, after a failed call, fails without calling. With Kalshi beside the books, Kalshi is asked
 * first: while it fails (its circuit open) no odds are bought for a refresh that could not publish;
 * odds bought when Kalshi fails later are kept for the next refresh, not bought again. Scores cost
 * credits too: they are fetched at most once per `scoresIntervalMs`, and not while the quota is
 * blocked. The quota and every call time are kept in `quotaStore` (Redis in the worker), so a
 * restarted worker makes no call while the provider's block holds or before an interval ends.
 */
import type { Logger } from '../../runtime/log.js';
import type { FinishedGame, League, LeagueData, Matchup } from '../../model/index.js';
import { LEAGUES } from '../../model/index.js';
import { oddsCreditsRemaining } from '../../metrics/sources.js';
import { QuotaExhaustedError, UpstreamBackoffError } from '../http/errors.js';
import { reportDropped } from '../http/parse.js';
import type { KalshiClient } from '../kalshi/client.js';
import { addKalshiGameOdds, KALSHI_GAME_SERIES } from '../kalshi/games.js';
import { normalizeKalshiMarkets } from '../kalshi/normalize.js';
import { withoutBrokenBooks } from '../quality/markets.js';
import type { OddsApiClient } from '../odds-api/client.js';
import { SPORT_KEYS, TeamResolver } from '../odds-api/mapping.js';
import { normalizeOdds } from '../odds-api/normalize.js';
import { pacedIntervalMs } from '../odds-api/pacing.js';
import { consensusLine, normalizeScores, type ClosingLine } from '../odds-api/scores.js';
import { processMemory, type LeagueMemory } from './league-memory.js';
import { processQuotaStore, type QuotaStore } from '../http/quota-store.js';
import type { Dropped } from '../quality/dropped.js';
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
  /** Where the provider's quota and the call times are kept between runs (default: this process only). */
  quotaStore?: QuotaStore;
}

/** A sportsbook source that remembers its last accepted leagues (for metrics). */
export interface OddsSportsbookSource extends SportsbookSource {
  lastLeagues(): readonly LeagueData[];
  /**
   * The refresh published `data` (the fetch as returned) as `published` (what the quality gate let
   * through: contradicting lines dropped, jumps held): metrics and closing lines use `published`.
   */
  accept(data: LeagueData, published?: LeagueData): void;
}

interface LeagueState {
  teams: TeamResolver;
  /** Last consensus line per upcoming game id, from snapshots the refresh accepted. */
  closing: Map<string, ClosingLine>;
  finished: Map<string, FinishedGame>;
  /** The games of the last good odds call (when the odds were last called is in the call times), and what the call left out. */
  odds?: { at: number; games: Matchup[]; dropped: Dropped[] };
  /** The games with Kalshi's rows added, for the odds call at `oddsAt`. */
  upcoming?: { oddsAt: number; matchups: Matchup[] };
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
  const quotaStore = opts.quotaStore ?? processQuotaStore();
  const states = new Map<League, LeagueState>();
  /** When each call ("odds:NBA", "scores:NBA") was last made or attempted, shared with the store. */
  const calls = new Map<string, number>();
  // What an earlier run saved, taken over once before this process's first call.
  let restored: Promise<void> | undefined;
  const restore = () =>
    (restored ??= quotaStore.load().then(
      (saved) => {
        if (!saved) return;
        opts.odds.quota.restore(saved.quota);
        for (const [k, t] of Object.entries(saved.calls)) calls.set(k, t);
      },
      (err: unknown) => {
        // Not knowing what an earlier run spent, make no call; the next refresh asks again.
        restored = undefined;
        throw err;
      },
    ));
  const savePacing = () => quotaStore.save({ quota: opts.odds.quota.saved(), calls: Object.fromEntries(calls) });
  /** Marks a call as made (saved before the call, so a crash during it still counts), then makes it and saves what the provider said. */
  async function paidCall<T>(name: string, at: number, call: () => Promise<T>): Promise<T> {
    calls.set(name, at);
    await savePacing();
    try {
      return await call();
    } finally {
      const remaining = opts.odds.quota.snapshot().remaining;
      if (remaining !== undefined) oddsCreditsRemaining.set({ upstream: 'odds-api' }, remaining);
      await savePacing().catch((err: unknown) =>
        opts.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not save the odds quota'),
      );
    }
  }
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

  /**
   * The league's odds: the last good ones while the interval runs, else undefined when a call is
   * due. A spent quota, a deferral, or a failed call still inside its interval throw without calling.
   */
  function oddsInHand(league: League, s: LeagueState, ctx: FetchContext): LeagueState['odds'] {
    const interval = Math.max(
      minInterval,
      pacedIntervalMs({
        now: ctx.now,
        quota: opts.odds.quota.snapshot(),
        leagues: LEAGUES.length,
        defaultCost: 3,
        ...(opts.monthlyCredits !== undefined ? { monthlyCredits: opts.monthlyCredits } : {}),
      }),
    );
    // A spent quota says more than the interval does (and calls nothing either).
    const spent = opts.odds.quota.blockedUntil(ctx.now);
    if (spent) throw new QuotaExhaustedError('odds-api', spent);
    const calledAt = calls.get(`odds:${league}`);
    if (calledAt === undefined || ctx.now.getTime() - calledAt >= interval) return undefined;
    if (s.odds?.at === calledAt) return s.odds;
    throw new UpstreamBackoffError(
      'odds-api',
      new Date(calledAt + interval),
      'last odds call failed or made by an earlier run; minimum interval until',
    );
  }

  /** Buys the league's odds now. */
  async function buyOdds(league: League, s: LeagueState, ctx: FetchContext): Promise<NonNullable<LeagueState['odds']>> {
    const t = ctx.now.getTime();
    const raw = await paidCall(`odds:${league}`, t, () => opts.odds.odds(SPORT_KEYS[league], ctx.signal));
    const { upcoming: games, dropped } = normalizeOdds(raw, {
      league,
      format: 'american',
      now: ctx.now,
      teams: s.teams,
    });
    s.odds = { at: t, games, dropped };
    return s.odds;
  }

  const kalshiGames = async (league: League, ctx: FetchContext) => {
    const k = normalizeKalshiMarkets(
      await opts.kalshi!.listMarkets({ series_ticker: KALSHI_GAME_SERIES[league], status: 'open' }, ctx.signal),
      ctx.now,
    );
    reportDropped(opts.log, 'kalshi', 'game markets', k.dropped, ctx.dropped);
    // A crossed or unmirrored book prices no game (quality/markets.ts).
    const books = withoutBrokenBooks(k.markets, () => true);
    ctx.dropped?.push(...books.dropped);
    return books.markets;
  };

  async function upcoming(league: League, s: LeagueState, ctx: FetchContext): Promise<Matchup[]> {
    const t = ctx.now.getTime();
    let odds = oddsInHand(league, s, ctx);
    // Kalshi first when odds are to be bought: while it fails no credits go to a refresh that could not publish.
    const kalshi =
      opts.kalshi && (!odds || s.upcoming?.oddsAt !== odds.at) ? await kalshiGames(league, ctx) : undefined;
    odds ??= await buyOdds(league, s, ctx);
    // What the call left out is reported by every refresh that publishes its odds, not only the
    // one that bought them: the snapshot meta lists it as long as the odds are shown.
    reportDropped(opts.log, 'odds-api', 'odds entries', odds.dropped, ctx.dropped);
    if (s.upcoming?.oddsAt !== odds.at) {
      const matchups =
        kalshi && odds.games.length > 0 ? addKalshiGameOdds(odds.games, kalshi, s.teams.teams(), ctx.now) : odds.games;
      s.upcoming = { oddsAt: odds.at, matchups };
    }
    return s.upcoming.matchups.filter((m) => Date.parse(m.scheduledTime) > t);
  }

  async function finished(league: League, s: LeagueState, ctx: FetchContext): Promise<FinishedGame[]> {
    const t = ctx.now.getTime();
    const scoresAt = calls.get(`scores:${league}`);
    // Scores cost credits too: paced, and never called while the quota is blocked or deferred.
    const held = opts.odds.quota.blockedUntil(ctx.now) ?? opts.odds.quota.deferredUntil(ctx.now);
    if (s.closing.size > 0 && !held && (scoresAt === undefined || t - scoresAt >= scoresInterval)) {
      try {
        const r = normalizeScores(
          await paidCall(`scores:${league}`, t, () => opts.odds.scores(SPORT_KEYS[league], ctx.signal)),
          s.closing,
          s.teams,
        );
        reportDropped(opts.log, 'odds-api', 'scores', r.dropped);
        for (const g of r.finished) {
          s.finished.set(g.id, g);
          s.closing.delete(g.id);
        }
      } catch (err) {
        // Trends are secondary: a failed scores call must not cost the odds refresh.
        opts.log?.warn(
          { league, err: err instanceof Error ? err.message : String(err) },
          'odds-api scores failed; keeping the finished games we have',
        );
      }
    }
    const all = [...s.finished.values()].sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime));
    for (const g of all.slice(0, Math.max(0, all.length - MAX_FINISHED))) s.finished.delete(g.id);
    return all.slice(-MAX_FINISHED);
  }

  return {
    name: opts.kalshi ? 'odds-api+kalshi' : 'odds-api',
    lastLeagues: () => [...states.values()].flatMap((s) => (s.last ? [s.last] : [])),
    accept: (data, published = data) => {
      const s = states.get(data.league);
      if (!s || s.pending !== data) return;
      s.last = published;
      // Closing lines come only from odds the gate let through: a refused response (books dropped,
      // lines missing) or a line it dropped (a spread quoted on both sides) must not set the line a
      // game is later graded against.
      for (const m of published.upcoming) {
        const line = consensusLine(m);
        if (line) s.closing.set(m.id, line);
      }
      void remember(data.league, s, data.finished);
    },
    async fetchLeague(league: League, ctx: FetchContext): Promise<LeagueData> {
      await restore();
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
