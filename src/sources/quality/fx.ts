/**
 * Quality checks of an FX snapshot (docs/sources.md, invariant 8), one fixing judged whole: a
 * stale or future-dated fixing; every rate moved by one factor (the USD row is suspect: we store
 * rates per USD, so a wrong USD row moves them all alike); a rate moving beyond a realistic daily
 * bound; a currency lost. Pure.
 */
import type { FxData } from '../../model/index.js';
import { median } from './consensus.js';
import type { QualityOptions } from './options.js';

const DAY = 86_400_000;

/** Weekdays from one fixing date to the next (the ECB fixes on business days): Friday to Monday is 1. */
function businessDays(from: string, to: string): number {
  let n = 0;
  for (let t = Date.parse(`${from}T00:00:00Z`) + DAY; t <= Date.parse(`${to}T00:00:00Z`); t += DAY) {
    const d = new Date(t).getUTCDay();
    if (d !== 0 && d !== 6) n++;
  }
  return n;
}

/**
 * Whether every rate moved by one factor: the median move is at least `minCommonMove` and nearly
 * every currency (90 %) lies within `commonSpread` of it. A real dollar move leaves the currencies
 * pegged to the dollar (HKD), and the managed ones, far from the others' move; a wrong USD row
 * moves each of them exactly alike.
 */
function commonFactor(prev: FxData, next: FxData, opts: QualityOptions): string | undefined {
  const moves = Object.entries(next.rates).flatMap(([code, rate]) =>
    code !== 'USD' && prev.rates[code] !== undefined ? [Math.log(rate / prev.rates[code]!)] : [],
  );
  if (moves.length < 5) return undefined;
  const m = median(moves);
  const together = moves.filter((x) => Math.abs(x - m) <= opts.fxCommonSpread).length;
  if (Math.abs(m) < opts.fxMinCommonMove || together < 0.9 * moves.length) return undefined;
  return `every rate moved by one factor (x${Math.exp(m).toFixed(4)} per USD, ${together} of ${moves.length} currencies within ${opts.fxCommonSpread * 100} % of it): the USD row is suspect`;
}

/** Violations, empty when `next` may be published. */
export function checkFx(prev: FxData | undefined, next: FxData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  const age = (now.getTime() - Date.parse(`${next.asOfDate}T00:00:00Z`)) / DAY;
  if (age > opts.maxFxAgeDays) out.push(`fixing of ${next.asOfDate} is older than ${opts.maxFxAgeDays} days`);
  // A fixing is published on its own date: a later date is a wrong stamp (or a wrong clock), never a forecast.
  if (next.asOfDate > now.toISOString().slice(0, 10)) out.push(`fixing of ${next.asOfDate} is dated in the future`);
  if (!prev) return out;
  const common = commonFactor(prev, next, opts);
  if (common) out.push(common);
  // Daily moves add up like a random walk: the bound grows with the square root of the business days since the last good fixing.
  const bound = opts.maxFxMove * Math.sqrt(Math.max(1, businessDays(prev.asOfDate, next.asOfDate)));
  for (const [code, rate] of Object.entries(next.rates)) {
    const was = prev.rates[code];
    if (was === undefined) continue;
    const move = Math.abs(rate / was - 1);
    if (move > bound)
      out.push(
        `${code} moved ${Math.round(move * 1000) / 10} % (${was} → ${rate}; bound ${Math.round(bound * 1000) / 10} %)`,
      );
  }
  const lost = Object.keys(prev.rates).filter((c) => !(c in next.rates));
  if (lost.length > 0) out.push(`currencies lost: ${lost.join(', ')}`);
  return out;
}
