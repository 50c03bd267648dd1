/**
 * One binary market as a prediction venue lists it, after its venue's normalizer: prices in
 * decimal dollars per $1 contract, volumes in USD. The catalog builder turns these into quotes;
 * the matcher compares two venues' lists of them.
 */
export interface VenueMarket {
  venue: 'kalshi' | 'polymarket';
  /** Kalshi market ticker, or Polymarket market slug. */
  id: string;
  /** Kalshi event ticker, or Polymarket event slug. */
  eventId: string;
  /** Polymarket conditionId and YES/NO token ids (CLOB), when known. */
  conditionId?: string;
  tokenIds?: { yes: string; no: string };
  /** The market's question or title (for Kalshi, a fallback when the deprecated `title` is gone). */
  title: string;
  /** The question exactly as the venue stated it; absent when it sent none (the match guard needs it). */
  question?: string;
  /** The event's title, when the market is one of several. */
  eventTitle?: string;
  /** What YES means within the event (Kalshi yes_sub_title, Polymarket groupItemTitle). */
  outcomeLabel?: string;
  /** Tradeable now (Kalshi active/open; Polymarket active, not closed, accepting orders). */
  open: boolean;
  /** The venue's two outcome labels in YES/NO order, when they are not plain Yes/No (["Lakers","Celtics"]). */
  sides?: [string, string];
  /** Price to buy YES / buy NO now, when the venue shows a live ask. */
  yesAsk?: number;
  noAsk?: number;
  /** Best bid for YES / for NO, when the venue shows one (for mid prices; a bid above the ask is a
   *  crossed, broken book). */
  yesBid?: number;
  noBid?: number;
  /** Last traded YES price. */
  lastPrice?: number;
  /** 24-hour traded volume in USD (Kalshi contracts converted at the traded price); null when the venue sent a malformed figure (unknown). */
  volume24hUsd: number | null;
  /** 24-hour volume in contracts, when the venue counts in contracts (Kalshi). */
  volume24hContracts?: number;
  /** null when the venue publishes no figure we trust (unknown, not zero). */
  openInterestUsd: number | null;
  liquidityUsd: number | null;
  /** When trading closes (ISO); undefined when the venue does not say. */
  closesAt?: string;
  /** The venue's own time of its record, prices included (ISO), when it states one (Gamma `updatedAt`). */
  updatedAt?: string;
  /** The contract page. */
  url: string;
  /** The resolution rules, as the venue states them. */
  rules?: string;
}
