/**
 * Taker-fee schedules of the venues whose prices sit beside sportsbook odds (docs/design.md: exchange
 * figures are shown after fees). Data with a source and an as-of date per venue; validated when the
 * module loads: every exchange or crypto operator of the catalog needs a schedule, and a schedule
 * for an unknown operator fails start-up. Sportsbooks need none: their odds carry their margin.
 * Betfair Exchange is listed with the books (it quotes odds) but is an exchange: its back odds are
 * before its commission, so it has a schedule too.
 */
import { priceAfterFee, type FeeSchedule } from '../domain/fees.js';
import { americanToDecimal, probabilityToAmerican } from '../domain/odds.js';
import type { Category } from '../model/index.js';
import { OPERATORS } from './operators.js';

const SCHEDULES: readonly FeeSchedule[] = [
  {
    operatorId: 'kalshi',
    // Kalshi's general trading fee: round_up(0.07 × C × P × (1 − P)) to the next cent per order.
    formula: { kind: 'variance', rates: { default: 0.07 } },
    rounding: 'up-cent',
    referenceContracts: 100,
    source:
      'Kalshi Fee Schedule (kalshi.com/docs/kalshi-fee-schedule.pdf): general taker fee 0.07 × C × P × (1 − P), rounded up to the next cent',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'polymarket',
    // fee = C × feeRate × p × (1 − p), per market category (geopolitics, fee-free, is not a category we carry).
    formula: {
      kind: 'variance',
      rates: { crypto: 0.07, sports: 0.03, politics: 0.04, economics: 0.05, culture: 0.05, default: 0.05 },
    },
    rounding: 'decimals-5',
    referenceContracts: 100,
    source:
      'Polymarket Trading Fees (docs.polymarket.com/trading/fees): C × feeRate × p × (1 − p), taker only; crypto 0.07, sports 0.03, politics 0.04, economics 0.05, culture 0.05; 5-decimal precision',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'forecastex',
    formula: { kind: 'variance', rates: { default: 0 } },
    rounding: 'none',
    referenceContracts: 100,
    source:
      'IBKR ForecastTrader (forecasttrader.interactivebrokers.com): "Forecast Contracts are offered at zero-commission at Interactive Brokers"',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'limitless',
    // The docs publish the range and direction (3.00% for low-probability buys down to 0.40%), not the
    // curve: a straight line between them is our reading, and ignores the experience discounts.
    formula: { kind: 'sliding-notional', atZero: 0.03, atOne: 0.004 },
    rounding: 'none',
    referenceContracts: 100,
    source:
      'Limitless Exchange Fees (docs.limitless.exchange/user-guide/fees): CLOB taker buy fee 0.40%–3.00% of notional, paid in contracts, falling as the price rises; makers pay none',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'betfair',
    // Commission = net winnings × Market Base Rate × (1 − discount); sports markets' base rate is 5 %.
    // No discount assumed: it depends on the customer's points.
    formula: { kind: 'winnings', rate: 0.05 },
    rounding: 'none',
    referenceContracts: 100,
    source:
      'Betfair Exchange help, "What is Commission and how is it calculated?" (support.betfair.com, answer 413): commission = net winnings × Market Base Rate × (100% − discount rate); sports markets 5 %',
    asOf: '2026-11-23',
  },
];

/**
 * Checks schedules against the operator catalog and indexes them by operator.
 * @throws Error naming every problem: a duplicate, an unknown operator, a rate out of range, a
 *   missing source or as-of date, an exchange or crypto operator without a schedule
 */
export function validateFeeSchedules(schedules: readonly FeeSchedule[]): ReadonlyMap<string, FeeSchedule> {
  const byId = new Map<string, FeeSchedule>();
  const problems: string[] = [];
  for (const s of schedules) {
    if (byId.has(s.operatorId)) problems.push(`duplicate fee schedule for ${s.operatorId}`);
    if (!OPERATORS.some((op) => op.id === s.operatorId))
      problems.push(`fee schedule for unknown operator ${s.operatorId}`);
    const f = s.formula;
    const rates =
      f.kind === 'variance'
        ? Object.entries(f.rates)
        : f.kind === 'winnings'
          ? [['rate', f.rate] as const]
          : [['atZero', f.atZero], ['atOne', f.atOne] as const];
    for (const [k, r] of rates)
      if (!(typeof r === 'number' && r >= 0 && r < 0.25)) problems.push(`${s.operatorId}: rate ${k}=${r} out of range`);
    if (!Number.isInteger(s.referenceContracts) || s.referenceContracts < 1)
      problems.push(`${s.operatorId}: bad referenceContracts`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s.asOf) || s.source.length < 10)
      problems.push(`${s.operatorId}: needs a source and an as-of date`);
    byId.set(s.operatorId, s);
  }
  for (const op of OPERATORS)
    if (op.kind !== 'sportsbook' && !byId.has(op.id)) problems.push(`${op.kind} operator ${op.id} has no fee schedule`);
  if (problems.length > 0) throw new Error(`invalid fee schedules:\n  ${problems.join('\n  ')}`);
  return byId;
}

const BY_ID = validateFeeSchedules(SCHEDULES);

/** The taker-fee schedule of an exchange or crypto venue; undefined for sportsbooks. */
export function feeSchedule(operatorId: string): FeeSchedule | undefined {
  return BY_ID.get(operatorId);
}

/**
 * What buying YES at `price` on `operatorId` costs per contract after the venue's taker fee, for a
 * market of `category`; the price itself for a venue without a schedule (sportsbooks).
 */
export function afterFeePrice(operatorId: string, category: Category | undefined, price: number): number {
  return priceAfterFee(BY_ID.get(operatorId), category, price);
}

/**
 * American odds quoted by `operatorId` after its fee, exact (an exchange quoted in odds, Betfair:
 * its back odds are before the commission); as quoted for a venue without a schedule (a book's odds
 * carry its margin).
 */
export function afterFeeAmerican(operatorId: string, category: Category | undefined, american: number): number {
  const schedule = BY_ID.get(operatorId);
  return schedule
    ? probabilityToAmerican(priceAfterFee(schedule, category, 1 / americanToDecimal(american)))
    : american;
}

/** Every schedule, for documentation and tests. */
export const FEE_SCHEDULES: readonly FeeSchedule[] = SCHEDULES;
