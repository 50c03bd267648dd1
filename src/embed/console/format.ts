/**
 * The console's figures as the viewer's locale writes them (`Intl`; no locale: the browser's own).
 * Periods are UTC days, so dates are written in UTC whatever the viewer's time zone. A rate or an
 * amount the report gives as null (nothing to divide by) is a dash, read out as "none".
 */

export const NONE = '–';

export interface Formats {
  /** A count: 1,234 (en), 1.234 (de). */
  count(n: number): string;
  /** A share: 3.46%, null as NONE. */
  percent(r: number | null): string;
  /** An amount in `currency` to its minor unit; `fine` keeps up to 4 decimals (earnings per click). */
  money(n: number | null, currency: string, fine?: boolean): string;
  /** A UTC day (2026-11-25) short: "25 Nov", "Nov 25". */
  day(isoDay: string): string;
  /** A UTC day with its year: "25 Nov 2026". */
  longDay(isoDay: string): string;
}

const dayMs = (isoDay: string) => Date.parse(`${isoDay.slice(0, 10)}T00:00:00Z`);

/** The formats of `locale`. */
export function formats(locale?: string): Formats {
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const day = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
  const longDay = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const money = new Map<string, Intl.NumberFormat>();
  const moneyFormat = (currency: string, fine: boolean) => {
    const key = `${currency}|${fine}`;
    let f = money.get(key);
    if (!f) {
      const digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
      f = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: fine ? Math.max(digits, 4) : digits,
      });
      money.set(key, f);
    }
    return f;
  };
  return {
    count: (n) => count.format(n),
    percent: (r) => (r === null ? NONE : percent.format(r)),
    money: (n, currency, fine = false) => (n === null ? NONE : moneyFormat(currency, fine).format(n)),
    day: (d) => day.format(dayMs(d)),
    longDay: (d) => longDay.format(dayMs(d)),
  };
}
