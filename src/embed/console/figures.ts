/**
 * The console's tables and charts from the report's rows (GET /advertiser/v1/reports, by day):
 * a day's figures are its row; a table sums an operator's (widget class's, country's) rows over the
 * range, as one would sum the CSV, and works its rates out again from the sums by the report's
 * rules (docs/contract.md, Reports). Pure.
 */
import { roundTo } from '../../domain/aggregate.js';
import type { ReportPayload, ReportRow } from '../../tracking/advertiser-report.js';

export type Figures = ReportPayload['totals'];
export type Column = 'operator_id' | 'widget' | 'country';

const COUNTS = ['impressions', 'clicks', 'registrations', 'first_deposits', 'deposits'] as const;
const AMOUNTS = ['deposit_amount', 'earnings'] as const;

/** n / of to `digits` decimals; null when `of` is 0 (the report's rule). */
const ratio = (n: number, of: number, digits: number) => (of > 0 ? roundTo(n / of, digits) : null);

/** The figures of `rows` summed. */
export function summed(rows: readonly ReportRow[]): Figures {
  const sums = {
    impressions: 0,
    clicks: 0,
    registrations: 0,
    first_deposits: 0,
    deposits: 0,
    deposit_amount: 0,
    earnings: 0,
  };
  for (const row of rows) {
    for (const k of COUNTS) sums[k] += row[k];
    for (const k of AMOUNTS) sums[k] += row[k];
  }
  // Amounts come to a minor unit (yen: none): two decimals hold every sum without float dust.
  for (const k of AMOUNTS) sums[k] = roundTo(sums[k], 2);
  return {
    ...sums,
    ctr: ratio(sums.clicks, sums.impressions, 6),
    conversion_rate: ratio(sums.registrations, sums.clicks, 6),
    earnings_per_click: ratio(sums.earnings, sums.clicks, 4),
  };
}

/** The range's figures per value of `column`, most clicks first (then by name). */
export function byColumn(rows: readonly ReportRow[], column: Column): Array<{ key: string; figures: Figures }> {
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const key = row[column] ?? '';
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups]
    .map(([key, group]) => ({ key, figures: summed(group) }))
    .sort((a, b) => b.figures.clicks - a.figures.clicks || a.key.localeCompare(b.key));
}

/** Every UTC day of the report's range (YYYY-MM-DD), oldest first. */
export function days(report: Pick<ReportPayload, 'from' | 'to'>): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(report.from); ms < Date.parse(report.to); ms += 86_400_000)
    out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

/** Each day's figures (a day with no row has none: zeros), oldest first. */
export function byDay(report: ReportPayload): Array<{ day: string; figures: Figures }> {
  return days(report).map((day) => ({
    day,
    figures: summed(report.rows.filter((r) => r.period_start.startsWith(day))),
  }));
}
