/**
 * Simulated daily FX reference rates (units per 1 USD). Like the ECB's reference they change once
 * per business day: the rate is the drift value at the day's 16:00 UTC fixing, weekends keep
 * Friday's.
 */
import type { FxData } from '../../model/index.js';
import { isoDay } from './calendar.js';
import { drift, type Octave } from './drift.js';
import { key } from './rng.js';

const DAY_SEC = 86_400;
// Late-2026 levels, roughly.
const LEVELS: Readonly<Record<string, number>> = {
  EUR: 0.92,
  GBP: 0.79,
  CAD: 1.38,
  AUD: 1.52,
  BRL: 5.6,
  MXN: 18.9,
  JPY: 151.0,
  CHF: 0.88,
  INR: 84.5,
};
// Majors wander ~1-2% over weeks; a few tenths of a percent day to day.
const FX_OCTAVES: readonly Octave[] = [
  { periodSec: 30 * DAY_SEC, amp: 0.015 },
  { periodSec: 5 * DAY_SEC, amp: 0.004 },
];

/** The last fixing at or before `now`: 16:00 UTC on a weekday. */
function fixingTime(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 16));
  if (d > now) d.setUTCDate(d.getUTCDate() - 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() - 1);
  return d;
}

/** Reference rates as published at the last fixing before `now`. */
export function buildFx(seed: number, now: Date): FxData {
  const fixing = fixingTime(now);
  const t = fixing.getTime() / 1000;
  const rates: Record<string, number> = { USD: 1 };
  for (const [code, level] of Object.entries(LEVELS)) {
    const rate = level * Math.exp(drift(key(seed, 'fx', code), t, FX_OCTAVES));
    rates[code] = Number(rate.toPrecision(6));
  }
  return { asOfDate: isoDay(fixing), rates };
}
