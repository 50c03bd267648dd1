/** Prediction-market events: outcomes, each quoted by one or more operators. */
import { z } from 'zod';
import { Category, ContractPrice, IsoTime, OperatorId, Slug } from './common.js';

/**
 * One operator's quote for one outcome: the price to buy YES (the ask, before the venue's taker
 * fee), the best bid when the venue shows one, and 24-hour traded volume in USD.
 */
export const Quote = z.object({
  operatorId: OperatorId,
  yesPrice: ContractPrice,
  /** The best YES bid, when the venue shows one; with the ask it gives the mid price. */
  yesBid: ContractPrice.optional(),
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
  /**
   * True when exactly one of the outcomes resolves YES (a Yes/No pair, or a list of mutually
   * exclusive, exhaustive outcomes such as "who wins"): their probabilities are normalised to sum
   * to 100 %. Absent or false for independent or nested binaries ("by March", "by June").
   */
  exclusive: z.boolean().optional(),
});
export type MarketEvent = z.infer<typeof MarketEvent>;

export const EventsData = z.object({
  events: z.array(MarketEvent),
});
export type EventsData = z.infer<typeof EventsData>;
