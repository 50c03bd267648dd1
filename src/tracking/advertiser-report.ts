/**
 * An advertiser's report: clicks, impressions and click-through rate per period (hour or UTC day),
 * optionally split by operator, widget class and country, read from the report counters
 * (report-counters.ts). Reading is one pipeline of one HGETALL per period; grouping is pure.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { GRANULARITIES, PERIOD_SECONDS, reportKey, type Granularity } from './report-counters.js';

export const REPORT_DIMENSIONS = ['operator', 'widget', 'country'] as const;
export type Dimension = (typeof REPORT_DIMENSIONS)[number];

/** The column each dimension fills, in rows and in the CSV header. */
const COLUMN = { operator: 'operator_id', widget: 'widget', country: 'country' } as const satisfies Record<Dimension, string>;

const Count = z.number().int().nonnegative();
const Ctr = z
  .number()
  .min(0)
  .nullable()
  .describe('clicks / impressions, to 6 decimals; null without impressions (live-market and sportsbook widgets count none)');

export const ReportRow = z.object({
  period_start: z.string().describe('Start of the hour or UTC day (RFC 3339, UTC)'),
  operator_id: z.string().optional().describe('The operator, when grouped by operator'),
  widget: z.string().optional().describe('The widget class (broad, event-specific, sportsbook, live-market), when grouped by widget'),
  country: z.string().optional().describe('The viewer\'s country (ISO 3166-1 alpha-2, ZZ unknown), when grouped by country'),
  impressions: Count.describe('Widgets with your attribution reported as seen by people: once per visitor, operator shown, widget class and UTC day; bots left out'),
  clicks: Count.describe('Clicks on your links: one per visitor, operator and UTC day; bots, HTTP libraries and prefetches left out'),
  ctr: Ctr,
});

export const ReportPayload = z.object({
  advertiser_id: z.string().describe('The advertiser whose attribution is counted (the caller)'),
  granularity: z.enum(GRANULARITIES).describe('The length of each period'),
  from: z.string().describe('Start of the first period (RFC 3339, UTC)'),
  to: z.string().describe('End of the last period, exclusive (RFC 3339, UTC)'),
  group_by: z.array(z.enum(REPORT_DIMENSIONS)).describe('The dimensions rows are split by, in the order asked'),
  rows: z.array(ReportRow).describe('One row per period and group with any count, oldest first'),
  totals: z
    .object({ impressions: Count.describe('Sum over the rows'), clicks: Count.describe('Sum over the rows'), ctr: Ctr })
    .describe('The whole range'),
});
export type ReportPayload = z.infer<typeof ReportPayload>;
export type ReportRow = z.infer<typeof ReportRow>;

export interface ReportRequest {
  advertiserId: string;
  granularity: Granularity;
  /** First and last period, as their start times (ms). */
  fromMs: number;
  toMs: number;
  groupBy: readonly Dimension[];
}

/** The start of the period holding `ms`. */
export const periodStart = (ms: number, g: Granularity) => ms - (ms % (PERIOD_SECONDS[g] * 1000));

const periodName = (ms: number, g: Granularity) => new Date(ms).toISOString().slice(0, g === 'day' ? 10 : 13);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const ctrOf = (clicks: number, impressions: number) => (impressions > 0 ? Math.round((clicks / impressions) * 1e6) / 1e6 : null);

/**
 * The report from each period's counter hash (field `{c|i}|operator|widget|country` → count),
 * `hashes[i]` being the i-th period from `fromMs`. Pure: the grouping and sums.
 */
export function buildReport(req: ReportRequest, hashes: ReadonlyArray<Readonly<Record<string, string>>>): ReportPayload {
  const step = PERIOD_SECONDS[req.granularity] * 1000;
  const rows: ReportRow[] = [];
  const totals = { impressions: 0, clicks: 0 };
  hashes.forEach((hash, i) => {
    const start = req.fromMs + i * step;
    const groups = new Map<string, ReportRow>();
    for (const [field, value] of Object.entries(hash)) {
      const [kind, operator, widget, country] = field.split('|') as [string, string, string, string];
      const n = Number(value);
      if ((kind !== 'c' && kind !== 'i') || !Number.isSafeInteger(n)) continue;
      const dims = { operator, widget, country };
      const key = req.groupBy.map((d) => dims[d]).join('|');
      let row = groups.get(key);
      if (!row) {
        row = { period_start: iso(start), impressions: 0, clicks: 0, ctr: null };
        for (const d of req.groupBy) row[COLUMN[d]] = dims[d];
        groups.set(key, row);
      }
      if (kind === 'c') row.clicks += n;
      else row.impressions += n;
    }
    for (const key of [...groups.keys()].sort()) {
      const row = groups.get(key)!;
      row.ctr = ctrOf(row.clicks, row.impressions);
      totals.impressions += row.impressions;
      totals.clicks += row.clicks;
      rows.push(row);
    }
  });
  return {
    advertiser_id: req.advertiserId,
    granularity: req.granularity,
    from: iso(req.fromMs),
    to: iso(req.fromMs + hashes.length * step),
    group_by: [...req.groupBy],
    rows,
    totals: { ...totals, ctr: ctrOf(totals.clicks, totals.impressions) },
  };
}

/** Reads the report's counters in one pipeline. @throws when Redis fails. */
export async function readReport(redis: Redis, req: ReportRequest): Promise<ReportPayload> {
  const step = PERIOD_SECONDS[req.granularity] * 1000;
  const pipe = redis.pipeline();
  for (let ms = req.fromMs; ms <= req.toMs; ms += step) pipe.hgetall(reportKey(req.advertiserId, req.granularity, periodName(ms, req.granularity)));
  const results = (await pipe.exec()) ?? [];
  const hashes = results.map(([err, hash]) => {
    if (err) throw err;
    return hash as Record<string, string>;
  });
  return buildReport(req, hashes);
}

/** The report as CSV (RFC 4180): a header line, then one line per row; an empty ctr for none. */
export function reportCsv(report: ReportPayload): string {
  const columns = ['period_start', ...report.group_by.map((d) => COLUMN[d]), 'impressions', 'clicks', 'ctr'] as const;
  const lines = [columns.join(',')];
  // Every value is an id, a code, a timestamp or a number: none holds a comma, quote or line break.
  for (const row of report.rows) lines.push(columns.map((c) => String(row[c as keyof ReportRow] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
