/** Prediction-market events: outcomes, each quoted by one or more operators. */
import { z } from 'zod';
import { Category, ContractPrice, IsoTime, OperatorId, Slug } from './common.js';

/**
 * One operator's quote for one outcome: the price to buy YES (the ask, before the venue's taker
 * fee), the best bid when the venue shows one, 24-hour traded volume in USD, and the venue's own
 * time of the quote when it states one.
 */
export const Quote = z.object({
  operatorId: OperatorId,
  yesPrice: ContractPrice,
  /** The best YES bid, when the venue shows one; with the ask it gives the mid price. */
  yesBid: ContractPrice.optional(),
  /** null: the venue sent a malformed figure (unknown, reported); the price still stands. */
  volume24hUsd: z.number().nonnegative().finite().nullable(),
  /** The operator's contract page for this outcome (a deep link target, never from a client). */
  marketUrl: z.url({ protocol: /^https$/ }),
  /** When the venue last updated the quote, by its own clock; absent when it states no time for its prices (Kalshi). */
  updatedAt: IsoTime.optional(),
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
  /**
   * True when exactly one of the outcomes resolves YES (a Yes/No pair, or a list of mutually
   * exclusive, exhaustive outcomes such as "who wins"): their probabilities are normalised to sum
   * to 100 %. Absent or false for independent or nested binaries ("by March", "by June").
   */
  exclusive: z.boolean().optional(),
  /** True when each outcome implies the next (a deadline ladder, earliest first): a later outcome is never less likely. */
  nested: z.boolean().optional(),
});
export type MarketEvent = z.infer<typeof MarketEvent>;

export const EventsData = z.object({
  events: z.array(MarketEvent),
});
export type EventsData = z.infer<typeof EventsData>;
