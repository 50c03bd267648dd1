/** Quality checks of an FX snapshot: a stale or future-dated fixing, and rates that jump against the last good one. Pure. */
import type { FxData } from '../../model/index.js';
import type { QualityOptions } from './options.js';

const DAY = 86_400_000;

/** Violations, empty when `next` may be published. */
export function checkFx(prev: FxData | undefined, next: FxData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  const age = (now.getTime() - Date.parse(`${next.asOfDate}T00:00:00Z`)) / DAY;
  if (age > opts.maxFxAgeDays) out.push(`fixing of ${next.asOfDate} is older than ${opts.maxFxAgeDays} days`);
  // A fixing is published on its own date: a later date is a wrong stamp (or a wrong clock), never a forecast.
  if (next.asOfDate > now.toISOString().slice(0, 10)) out.push(`fixing of ${next.asOfDate} is dated in the future`);
  if (!prev) return out;
  for (const [code, rate] of Object.entries(next.rates)) {
    const was = prev.rates[code];
    if (was === undefined) continue;
    const move = Math.abs(rate / was - 1);
    if (move > opts.maxFxMove) out.push(`${code} moved ${Math.round(move * 100)} % (${was} → ${rate})`);
  }
  const lost = Object.keys(prev.rates).filter((c) => !(c in next.rates));
  if (lost.length > 0) out.push(`currencies lost: ${lost.join(', ')}`);
  return out;
}
