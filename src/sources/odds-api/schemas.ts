/** The Odds API v4 shapes (`/v4/sports/{sport}/odds`, `/scores`), as far as we read them. */
import { z } from 'zod';

/** A number sent as a number or a decimal string. */
const Numeric = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[-+]?\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().finite());

export const OddsOutcome = z.object({
  name: z.string().min(1),
  price: Numeric,
  point: Numeric.nullish().transform((p) => p ?? undefined),
});

export const OddsMarket = z.object({
  key: z.string().min(1),
  // Not read: malformed reads as absent.
  last_update: z.iso.datetime({ offset: true }).nullish().catch(undefined),
  outcomes: z.array(OddsOutcome),
});

/** A bookmaker; its markets are validated one by one. */
export const OddsBookmaker = z.object({
  key: z.string().min(1),
  title: z.string().nullish().catch(undefined),
  last_update: z.iso.datetime({ offset: true }),
  markets: z
    .array(z.unknown())
    .nullish()
    .transform((m) => m ?? []),
});

/** An event; its bookmakers are validated one by one. */
export const OddsEvent = z.object({
  id: z.string().min(1).max(100),
  sport_key: z.string().min(1),
  commence_time: z.iso.datetime({ offset: true }),
  home_team: z.string().min(1),
  away_team: z.string().min(1),
  bookmakers: z
    .array(z.unknown())
    .nullish()
    .transform((b) => b ?? []),
});
export type OddsEvent = z.infer<typeof OddsEvent>;

export const ScoreEvent = z.object({
  id: z.string().min(1).max(100),
  commence_time: z.iso.datetime({ offset: true }),
  completed: z.boolean(),
  home_team: z.string().min(1),
  away_team: z.string().min(1),
  scores: z.array(z.object({ name: z.string(), score: z.string().regex(/^\d+$/) })).nullish(),
});
export type ScoreEvent = z.infer<typeof ScoreEvent>;
