/** Prediction-market events: outcomes, each quoted by one or more operators. */
import { z } from 'zod';
import { Category, ContractPrice, IsoTime, OperatorId, Slug } from './common.js';

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
