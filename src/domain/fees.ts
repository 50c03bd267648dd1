/**
 * Taker fees of prediction-market venues, and the after-fee price a widget shows beside other
 * venues (docs/design.md: exchange figures are after fees; sportsbook odds already carry their margin).
 *
 * Two published fee shapes cover the venues we list:
 * - `variance`: `rate × C × p × (1 − p)` dollars for C contracts bought at p (Kalshi, Polymarket),
 *   rounded by the venue's own rule;
 * - `sliding-notional`: a percentage of the notional `C × p` that slides linearly from `atZero`
 *   (a contract near 0) to `atOne` (near 1), taken in contracts (Limitless's CLOB buy fee);
 * - `winnings`: a commission of `rate` on net winnings, `C × (1 − p) × rate` if the bet wins and
 *   nothing if it loses (Betfair Exchange, whose back odds are quoted before it).
 * The per-contract cost shown is for a reference order of C contracts (a one-contract order would
 * let Kalshi's cent round-up dominate; the schedule names its reference size).
 */
import type { Category } from '../model/index.js';

/** How a venue computes one order's taker fee. */
export type FeeFormula =
  | {
      kind: 'variance';
      /** The fee rate per market category; `default` where a category is not listed. */
      rates: Partial<Record<Category, number>> & { default: number };
    }
  | {
      kind: 'sliding-notional';
      /** Fee as a fraction of notional for a price near 0 and near 1; linear in between. */
      atZero: number;
      atOne: number;
    }
  | {
      kind: 'winnings';
      /** Commission as a fraction of net winnings. */
      rate: number;
    };

/** One venue's published taker-fee schedule. Data, with its source, in catalog/fee-schedules.ts. */
export interface FeeSchedule {
  operatorId: string;
  formula: FeeFormula;
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

/** The fee rate a variance-shaped schedule applies to a market of `category` (0 for other shapes). */
export function feeRate(schedule: FeeSchedule, category: Category | undefined): number {
  const f = schedule.formula;
  if (f.kind !== 'variance') return 0;
  return (category !== undefined ? f.rates[category] : undefined) ?? f.rates.default;
}

function roundFee(schedule: FeeSchedule, raw: number): number {
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

function check(price: number, contracts: number): void {
  if (!(price > 0 && price < 1)) throw new RangeError(`price must be in (0, 1), got ${price}`);
  if (!Number.isInteger(contracts) || contracts < 1)
    throw new RangeError(`contracts must be a positive integer, got ${contracts}`);
}

/**
 * The fee, in dollars, for buying `contracts` contracts at `price` under `schedule`.
 * @throws RangeError when the price is outside (0, 1) or the count is not a positive integer
 */
export function takerFee(
  schedule: FeeSchedule,
  category: Category | undefined,
  price: number,
  contracts: number,
): number {
  check(price, contracts);
  const f = schedule.formula;
  const raw =
    f.kind === 'variance'
      ? feeRate(schedule, category) * contracts * price * (1 - price)
      : f.kind === 'winnings'
        ? contracts * (1 - price) * f.rate
        : contracts * price * (f.atZero + (f.atOne - f.atZero) * price);
  return roundFee(schedule, raw);
}

/**
 * The per-contract cost of buying at `price` including the taker fee, for the schedule's reference
 * order size. Without a schedule (a venue that charges no taker fee) the price is returned as is.
 * A fee taken in contracts (sliding-notional) leaves fewer contracts for the same dollars, so the
 * cost per contract received is `price / (1 − fraction)`; a commission on winnings leaves each
 * winning contract paying `1 − fee / C`, so the cost per dollar paid out is `price / (1 − fee / C)`
 * (decimal odds 1 + (d − 1)(1 − rate)); a fee in dollars adds `fee / C`.
 */
export function priceAfterFee(
  schedule: FeeSchedule | undefined,
  category: Category | undefined,
  price: number,
): number {
  if (!schedule) return price;
  const c = schedule.referenceContracts;
  const fee = takerFee(schedule, category, price, c);
  const kind = schedule.formula.kind;
  const after =
    kind === 'sliding-notional'
      ? price / (1 - fee / (c * price))
      : kind === 'winnings'
        ? price / (1 - fee / c)
        : price + fee / c;
  // Six decimals: the fee maths' float noise must not reach comparisons or payloads. A fee in
  // contracts can push a near-certain contract's cost to $1 or more (no payout left); it stays a
  // price, just below 1, so the widget still shows it as the worst value it is.
  return Math.min(Math.round(after * 1e6) / 1e6, 0.999999);
}
