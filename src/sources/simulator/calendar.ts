/** Small UTC calendar helpers; the simulator never uses local time zones. */
import { MONTH_NAMES } from '../../model/months.js';

export const DAY_MS = 86_400_000;

/** A UTC date from a 1-based month. */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  return new Date(Date.UTC(year, month - 1, day, hour, minute));
}

/** Adds whole days (UTC, so no DST surprises). */
export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

/** First date on or after (year, month, day) that falls on a weekday (0 = Sunday). */
export function weekdayOnOrAfter(year: number, month: number, day: number, weekday: number): Date {
  const d = utc(year, month, day);
  return addDays(d, (weekday - d.getUTCDay() + 7) % 7);
}

/** Lowercase English month name of a date (slugs and questions are English). */
export function monthName(d: Date): string {
  return MONTH_NAMES[d.getUTCMonth()] as string;
}

/** Capitalized month name for questions. */
export function monthTitle(d: Date): string {
  const m = monthName(d);
  return m.charAt(0).toUpperCase() + m.slice(1);
}

/** `YYYY-MM-DD` of a UTC date. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The first occurrence of an annual date strictly after `now` (plus a minimum lead, so a market
 * about to close rolls to next year's edition instead of showing a stale question).
 */
export function nextAnnual(now: Date, at: (year: number) => Date, minLeadDays = 0): Date {
  const limit = now.getTime() + minLeadDays * DAY_MS;
  for (let y = now.getUTCFullYear() - 1; ; y++) {
    const d = at(y);
    if (d.getTime() > limit) return d;
  }
}

/** Kalshi-style date code: `26DEC`, `26DEC09`. */
export function kalshiDateCode(d: Date, withDay: boolean): string {
  const yy = String(d.getUTCFullYear() % 100).padStart(2, '0');
  const mon = monthName(d).slice(0, 3).toUpperCase();
  return withDay ? `${yy}${mon}${String(d.getUTCDate()).padStart(2, '0')}` : `${yy}${mon}`;
}
