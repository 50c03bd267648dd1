/**
 * The deadline a market's text states: "before 2026-03-01T15:00:00Z", "by February 28",
 * "Before March 1, 2026", "Before April", "Before 2027". "by X" means the end of day X, "before X"
 * its start, so "by February 28" and "before March 1" agree. Years missing from the text come
 * from the market's close time.
 */
import { systemClock } from '../../model/clock.js';
import { MONTH_NAMES } from '../../model/months.js';

const MONTHS: readonly string[] = MONTH_NAMES.map((m) => m.slice(0, 3));
const DAY = 86_400_000;

export interface Deadline {
  /** Epoch ms; NaN when neither the text nor a close time gives one. */
  at: number;
  /** Where it came from: the text (strong), the close time (weak: venues set those loosely), or nowhere. */
  from: 'text' | 'close' | 'none';
}

const monthIndex = (w: string) => MONTHS.indexOf(w.slice(0, 3).toLowerCase());

/** Every deadline stated in `text`, in epoch ms; `fallbackYear` fills a missing year. */
export function statedDeadlines(text: string, fallbackYear: number): number[] {
  const out: number[] = [];
  const s = text.toLowerCase();
  for (const m of s.matchAll(/(\d{4})-(\d{2})-(\d{2})(?:t(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?z)?/g)) {
    out.push(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)));
  }
  const monthRe =
    /\b(by|before|on|through|until|in)?\s*(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b(?:\s+(\d{1,2})(?:st|nd|rd|th)?)?(?:,?\s+(\d{4}))?/g;
  for (const m of s.matchAll(monthRe)) {
    const prep = m[1] ?? 'by';
    const month = monthIndex(m[2] as string);
    const year = m[4] ? Number(m[4]) : fallbackYear;
    if (m[3]) {
      const day = Date.UTC(year, month, Number(m[3]));
      out.push(prep === 'before' ? day : day + DAY);
    } else {
      // A month alone: "before April" is its first day, "by/in April" its last.
      out.push(prep === 'before' ? Date.UTC(year, month, 1) : Date.UTC(year, month + 1, 1));
    }
  }
  for (const m of s.matchAll(/\b(before|by|in|end of)\s+((?:19|20)\d{2})\b/g)) {
    const y = Number(m[2]);
    out.push(m[1] === 'before' ? Date.UTC(y, 0, 1) : Date.UTC(y + 1, 0, 1));
  }
  return out;
}

/** The market's deadline: the latest one its label or title states, else its close time. */
export function deadlineOf(
  texts: readonly (string | undefined)[],
  closesAt: string | undefined,
  nowMs: number = systemClock(),
): Deadline {
  const close = closesAt ? Date.parse(closesAt) : NaN;
  // Without a close time, a year-less date in the text is read in the current year.
  const year = Number.isNaN(close) ? new Date(nowMs).getUTCFullYear() : new Date(close).getUTCFullYear();
  for (const t of texts) {
    if (!t) continue;
    const found = statedDeadlines(t, year);
    if (found.length > 0) return { at: Math.max(...found), from: 'text' };
  }
  return Number.isNaN(close) ? { at: NaN, from: 'none' } : { at: close, from: 'close' };
}
