/** Sportsbook leagues: teams, upcoming matchups with each book's lines, finished games. */
import { z } from 'zod';
import { IsoTime, League, OperatorId } from './common.js';

export const TeamCode = z.string().regex(/^[A-Z][A-Z0-9]{1,4}$/);

export const Team = z.object({
  code: TeamCode,
  name: z.string().min(1),
  /** Other names a publisher's page may use: city, nickname, short name. */
  aliases: z.array(z.string().min(1)),
});
export type Team = z.infer<typeof Team>;

/**
 * American odds, >= +100 or <= -100. Books quote integers; an exchange's after-fee contract price
 * keeps its exact value (+425.21), what it really pays. Shown rounded, and best odds are judged on
 * what is shown.
 */
export const AmericanOdds = z
  .number()
  .finite()
  .refine((n) => n >= 100 || n <= -100, 'American odds are >= +100 or <= -100');

/** A handicap or total line with its price. */
export const PricedLine = z.object({
  point: z.number().finite(),
  price: AmericanOdds,
});
export type PricedLine = z.infer<typeof PricedLine>;

/** One operator's prices for one matchup. A market the operator does not offer is absent. */
export const BookOdds = z.object({
  operatorId: OperatorId,
  lastUpdate: IsoTime,
  homeSpread: PricedLine.optional(),
  awaySpread: PricedLine.optional(),
  totalOver: PricedLine.optional(),
  totalUnder: PricedLine.optional(),
  homeMoneyline: AmericanOdds.optional(),
  awayMoneyline: AmericanOdds.optional(),
  /** Football's third outcome (1X2): the price of a draw. Absent where games never end level. */
  drawMoneyline: AmericanOdds.optional(),
});
export type BookOdds = z.infer<typeof BookOdds>;

export const Matchup = z.object({
  id: z.string().min(1).max(100),
  scheduledTime: IsoTime,
  homeCode: TeamCode,
  awayCode: TeamCode,
  books: z.array(BookOdds),
});
export type Matchup = z.infer<typeof Matchup>;

/** A finished game with its final score and the closing lines it is graded against. */
export const FinishedGame = z.object({
  id: z.string().min(1).max(100),
  scheduledTime: IsoTime,
  homeCode: TeamCode,
  awayCode: TeamCode,
  homeScore: z.number().int().nonnegative(),
  awayScore: z.number().int().nonnegative(),
  /** The home team's signed closing spread (-5.5 means home gives 5.5 points). */
  closingSpreadHome: z.number().finite(),
  closingTotal: z.number().positive().finite(),
});
export type FinishedGame = z.infer<typeof FinishedGame>;

export const LeagueData = z.object({
  league: League,
  teams: z.array(Team).min(2),
  /** This season's finished games, oldest first. */
  finished: z.array(FinishedGame),
  /** Games not yet started, soonest first. */
  upcoming: z.array(Matchup),
});
export type LeagueData = z.infer<typeof LeagueData>;
