/** Price history as the venues' own history endpoints give it, before it is stored. */
/** One venue's prices for one outcome: Unix seconds, dollars per $1 contract, oldest first. */
export interface VenueSeries {
  outcome: string;
  operatorId: string;
  points: Array<{ t: number; ask: number; bid: number | null }>;
}

/** The span asked for and the spacing wanted (5-minute points for a day, hourly for a month). */
export interface HistoryWindow {
  fromSec: number;
  toSec: number;
  stepMinutes: 5 | 60;
}
