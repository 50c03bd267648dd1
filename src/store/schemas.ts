/**
 * The one internal model. Every source (simulator, Kalshi, Polymarket, the odds provider) maps into
 * these shapes; every widget builder reads them. Snapshots are validated with these schemas when a
 * worker writes them and again when an API process reads them from Redis.
 */
import { z } from 'zod';

export const IsoTime = z.iso.datetime({ offset: false });

/** Lowercase words joined by hyphens (spec 2.6). */
export const Slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/).max(120);

export const OperatorId = z.string().regex(/^[a-z][a-z0-9-]{1,39}$/);

export const Category = z.enum(['politics', 'economics', 'crypto', 'sports', 'culture']);
export type Category = z.infer<typeof Category>;

export const LEAGUES = ['NCAAB', 'NBA', 'NFL', 'EPL'] as const;
export const League = z.enum(LEAGUES);
export type League = z.infer<typeof League>;

/** Price of a contract that pays $1: decimal dollars strictly between 0 and 1 (0.62 = 62¢). */
export const ContractPrice = z.number().gt(0).lt(1);

// ---------------------------------------------------------------- events (prediction markets)

/** One operator's quote for one outcome: the price to buy YES, and 24-hour traded volume in USD. */
export const Quote = z.object({
  operatorId: OperatorId,
  yesPrice: ContractPrice,
  volume24hUsd: z.number().nonnegative().finite(),
  /** The operator's contract page for this outcome (a deep link target, never from a client). */
  marketUrl: z.url({ protocol: /^https$/ }),
});
export type Quote = z.infer<typeof Quote>;

export const Outcome = z.object({
  name: z.string().min(1).max(200),
  quotes: z.array(Quote).min(1),
});
export type Outcome = z.infer<typeof Outcome>;

export const MarketEvent = z.object({
  slug: Slug,
  question: z.string().min(1).max(300),
  category: Category,
  closesAt: IsoTime,
  outcomes: z.array(Outcome).min(1),
});
export type MarketEvent = z.infer<typeof MarketEvent>;

export const EventsData = z.object({
  events: z.array(MarketEvent),
});
export type EventsData = z.infer<typeof EventsData>;

// ---------------------------------------------------------------- sportsbook

export const TeamCode = z.string().regex(/^[A-Z][A-Z0-9]{1,4}$/);

export const Team = z.object({
  code: TeamCode,
  name: z.string().min(1),
  /** Other names a publisher's page may use: city, nickname, short name. */
  aliases: z.array(z.string().min(1)),
});
export type Team = z.infer<typeof Team>;

/** American odds: an integer, >= +100 or <= -100. */
export const AmericanOdds = z
  .number()
  .int()
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

// ---------------------------------------------------------------- operator metrics

export const OperatorMetrics = z.object({
  operatorId: OperatorId,
  volume24hUsd: z.number().nonnegative().finite(),
  openInterestUsd: z.number().nonnegative().finite(),
  liquidityUsd: z.number().nonnegative().finite(),
  /** Active events or matchups the operator prices. */
  activeEvents: z.number().int().nonnegative(),
  volumeByCategoryUsd: z.partialRecord(z.enum([...Category.options]), z.number().nonnegative().finite()),
});
export type OperatorMetrics = z.infer<typeof OperatorMetrics>;

export const MetricsData = z.object({
  operators: z.array(OperatorMetrics),
});
export type MetricsData = z.infer<typeof MetricsData>;

// ---------------------------------------------------------------- FX reference rates

/** Units of each currency per 1 USD (EUR 0.92 means $1 = €0.92), from a daily reference. */
export const FxData = z.object({
  /** The reference date the publisher stamped on the rates (YYYY-MM-DD). */
  asOfDate: z.iso.date(),
  rates: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().positive().finite()),
});
export type FxData = z.infer<typeof FxData>;

// ---------------------------------------------------------------- snapshot envelope

export const SNAPSHOT_KINDS = ['events', 'sportsbook', 'metrics', 'fx'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** The data schema of each snapshot kind. */
export const SnapshotData = {
  events: EventsData,
  sportsbook: LeagueData,
  metrics: MetricsData,
  fx: FxData,
} as const satisfies Record<SnapshotKind, z.ZodType>;

export type SnapshotDataOf<K extends SnapshotKind> = z.infer<(typeof SnapshotData)[K]>;

/** What is stored at `pw:snap:{kind}:{key}`. */
export interface Snapshot<K extends SnapshotKind = SnapshotKind> {
  kind: K;
  key: string;
  /** Increments on every content change. */
  version: number;
  /** When the content last changed (payload timestamps derive from this). */
  changedAt: string;
  data: SnapshotDataOf<K>;
}

/** The `pw:snap` notification. */
export const SnapNotice = z.object({
  kind: z.enum(SNAPSHOT_KINDS),
  key: z.string().min(1),
  version: z.number().int().positive(),
});
export type SnapNotice = z.infer<typeof SnapNotice>;
