/**
 * Taker fees of prediction-market venues, and the after-fee price a widget shows beside sportsbook
 * odds (docs/design.md: exchange figures are after fees; sportsbook odds already carry their margin).
 *
 * Every venue we list charges a fee of the "binary" shape `rate × C × p × (1 − p)` for C contracts
 * bought at price p, rounded by the venue's own rule. The per-contract cost of buying YES at `p` is
 * then `p + fee(C) / C` for a reference order of C contracts (a one-contract order would let the
 * venue's round-up dominate; the schedule names its reference size).
 */
import type { Category } from '../model/index.js';

/** One venue's published taker-fee schedule. Data, with its source, in catalog/fee-schedules.ts. */
export interface FeeSchedule {
  operatorId: string;
  /** The fee rate per market category; `default` where a category is not listed. */
  rates: Partial<Record<Category, number>> & { default: number };
  /**
   * How the venue rounds one order's fee: `up-cent` rounds the order's total fee up to the next cent
   * (Kalshi); `decimals-5` rounds to 5 decimal places (Polymarket's CLOB); `none` keeps it exact.
   */
  rounding: 'up-cent' | 'decimals-5' | 'none';
  /** The order size, in contracts, that the shown per-contract price assumes. */
  referenceContracts: number;
  source: string;
  /** When the schedule was last checked against the source (YYYY-MM-DD). */
  asOf: string;
}

/** The fee rate a schedule applies to a market of `category`. */
export function feeRate(schedule: FeeSchedule, category: Category | undefined): number {
  return (category !== undefined ? schedule.rates[category] : undefined) ?? schedule.rates.default;
}

/**
 * The fee, in dollars, for buying `contracts` contracts at `price` under `schedule`.
 * @throws RangeError when the price is outside (0, 1) or the count is not a positive integer
 */
export function takerFee(schedule: FeeSchedule, category: Category | undefined, price: number, contracts: number): number {
  if (!(price > 0 && price < 1)) throw new RangeError(`price must be in (0, 1), got ${price}`);
  if (!Number.isInteger(contracts) || contracts < 1) throw new RangeError(`contracts must be a positive integer, got ${contracts}`);
  const raw = feeRate(schedule, category) * contracts * price * (1 - price);
  switch (schedule.rounding) {
    case 'up-cent':
      // 1e-9 absorbs float noise so an exact cent (0.0175 * 100 = 1.7500000000000002) is not pushed up.
      return Math.ceil(raw * 100 - 1e-9) / 100;
    case 'decimals-5':
      return Math.round(raw * 1e5) / 1e5;
    case 'none':
      return raw;
  }
}

/**
 * The per-contract cost of buying at `price` including the taker fee, for the schedule's reference
 * order size. Without a schedule (a venue that charges no taker fee) the price is returned as is.
 */
export function priceAfterFee(schedule: FeeSchedule | undefined, category: Category | undefined, price: number): number {
  if (!schedule) return price;
  const c = schedule.referenceContracts;
  return price + takerFee(schedule, category, price, c) / c;
}
