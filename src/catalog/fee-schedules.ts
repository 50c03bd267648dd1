/**
 * Taker-fee schedules of the venues whose prices sit beside sportsbook odds (docs/design.md: exchange
 * figures are shown after fees). Data with a source and an as-of date per venue; validated when the
 * module loads: every exchange or crypto operator of the catalog needs a schedule, and a schedule
 * for an unknown operator fails start-up. Sportsbooks need none: their odds carry their margin.
 */
import type { FeeSchedule } from '../domain/fees.js';
import { OPERATORS } from './operators.js';

const SCHEDULES: readonly FeeSchedule[] = [
  {
    operatorId: 'kalshi',
    // Kalshi's general trading fee: round_up(0.07 × C × P × (1 − P)) to the next cent per order.
    rates: { default: 0.07 },
    rounding: 'up-cent',
    referenceContracts: 100,
    source: 'Kalshi Fee Schedule (kalshi.com/docs/kalshi-fee-schedule.pdf): general taker fee 0.07 × C × P × (1 − P), rounded up to the next cent',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'polymarket',
    // fee = C × feeRate × p × (1 − p), per market category; geopolitics is fee-free.
    rates: { crypto: 0.07, sports: 0.03, politics: 0.04, economics: 0.05, culture: 0.05, default: 0.05 },
    rounding: 'decimals-5',
    referenceContracts: 100,
    source: 'Polymarket Trading Fees (docs.polymarket.com/trading/fees): C × feeRate × p × (1 − p), taker only, rate per category',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'forecastex',
    rates: { default: 0 },
    rounding: 'none',
    referenceContracts: 100,
    source: 'Interactive Brokers ForecastTrader: forecast contracts trade commission-free (IBKR commissions page, ForecastEx)',
    asOf: '2026-11-23',
  },
  {
    operatorId: 'limitless',
    rates: { default: 0.03 },
    rounding: 'decimals-5',
    referenceContracts: 100,
    source: 'Limitless Exchange docs (Fees): taker fee on CLOB markets, binary p × (1 − p) shape',
    asOf: '2026-11-23',
  },
];

function validate(schedules: readonly FeeSchedule[]): ReadonlyMap<string, FeeSchedule> {
  const byId = new Map<string, FeeSchedule>();
  const problems: string[] = [];
  for (const s of schedules) {
    if (byId.has(s.operatorId)) problems.push(`duplicate fee schedule for ${s.operatorId}`);
    if (!OPERATORS.some((op) => op.id === s.operatorId)) problems.push(`fee schedule for unknown operator ${s.operatorId}`);
    for (const [k, r] of Object.entries(s.rates)) if (!(r >= 0 && r < 0.25)) problems.push(`${s.operatorId}: rate ${k}=${r} out of range`);
    if (!Number.isInteger(s.referenceContracts) || s.referenceContracts < 1) problems.push(`${s.operatorId}: bad referenceContracts`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s.asOf) || s.source.length < 10) problems.push(`${s.operatorId}: needs a source and an as-of date`);
    byId.set(s.operatorId, s);
  }
  for (const op of OPERATORS) if (op.kind !== 'sportsbook' && !byId.has(op.id)) problems.push(`${op.kind} operator ${op.id} has no fee schedule`);
  if (problems.length > 0) throw new Error(`invalid fee schedules:\n  ${problems.join('\n  ')}`);
  return byId;
}

const BY_ID = validate(SCHEDULES);

/** The taker-fee schedule of an exchange or crypto venue; undefined for sportsbooks. */
export function feeSchedule(operatorId: string): FeeSchedule | undefined {
  return BY_ID.get(operatorId);
}
