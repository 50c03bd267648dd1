/**
 * Reviews that do not go stale: every row says when its sources were last read (`reviewed_on`);
 * a row older than the review period (COMPLIANCE_REVIEW_DAYS) is overdue. The API warns at start
 * and exports the count (predictwire_compliance_reviews_overdue); `npm run compliance -- audit`
 * lists the rows. Time is passed in.
 */
import type { ComplianceRules } from './rules.js';
import type { Table } from './schema.js';

const DAY_MS = 86_400_000;

export interface OverdueRow {
  table: Table;
  id: string;
  reviewedOn: string;
  /** Whole days since it was reviewed. */
  ageDays: number;
}

/** Whole days from the UTC day `date` (YYYY-MM-DD) to `nowMs`. */
export const daysSince = (date: string, nowMs: number): number =>
  Math.floor((nowMs - Date.parse(`${date}T00:00:00Z`)) / DAY_MS);

/** Every row reviewed more than `reviewDays` days before `nowMs`, oldest first. */
export function overdueRows(rules: Pick<ComplianceRules, 'rows'>, nowMs: number, reviewDays: number): OverdueRow[] {
  return rules
    .rows()
    .map(({ table, row }) => ({
      table,
      id: row.id,
      reviewedOn: row.reviewed_on,
      ageDays: daysSince(row.reviewed_on, nowMs),
    }))
    .filter((r) => r.ageDays > reviewDays)
    .sort((a, b) => b.ageDays - a.ageDays || a.id.localeCompare(b.id));
}
