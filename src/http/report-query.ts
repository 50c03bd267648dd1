/**
 * The query of an advertiser's report (GET /advertiser/v1/reports and `npm run advertiser --
 * report`): the range, granularity, grouping and currency asked, checked against what the counters
 * keep. Apart from the route, so the CLI reads a report without loading the HTTP layer.
 */
import { z } from 'zod';
import { GRANULARITIES, PERIOD_SECONDS, REPORT_RETENTION } from '../tracking/report-counters.js';
import { periodStart, REPORT_DIMENSIONS, type Dimension, type ReportRequest } from '../tracking/advertiser-report.js';
import { CURRENCY_CODES } from '../model/index.js';
import { invalidParameters } from '../model/problem.js';
import { enumParam } from './params.js';

const MOMENT = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2})?Z)?$/;

/** A UTC date or time; a date alone stands for its whole day (`whole_day`). */
const Moment = z
  .string()
  .transform((s, ctx) => {
    const m = MOMENT.exec(s);
    const ms = m ? Date.parse(s) : NaN;
    // Date.parse rolls 2026-02-30 over into March: a real date reads back as itself.
    if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== m[1]) {
      ctx.addIssue({ code: 'custom', message: 'must be a UTC date (2026-11-25) or time (2026-11-25T18:00:00Z)' });
      return z.NEVER;
    }
    return { ms, wholeDay: m[2] === undefined };
  })
  .meta({ type: 'string', pattern: MOMENT.source, maxLength: '2026-11-25T18:00:00Z'.length });

const GroupBy = z
  .string()
  .transform((s, ctx) => {
    const dims = s === '' ? [] : s.split(',');
    if (dims.some((d) => !(REPORT_DIMENSIONS as readonly string[]).includes(d)) || new Set(dims).size !== dims.length) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma-separated list of distinct ${REPORT_DIMENSIONS.join(', ')}`,
      });
      return z.NEVER;
    }
    return dims as Dimension[];
  })
  // Distinct dimensions: at most all of them, once each.
  .meta({
    type: 'string',
    pattern: `^(${REPORT_DIMENSIONS.join('|')})?(,(${REPORT_DIMENSIONS.join('|')}))*$`,
    maxLength: REPORT_DIMENSIONS.join(',').length,
  });

export const ReportQuery = z.object({
  from: Moment.meta({
    description:
      'First period, inclusive: a UTC date (2026-11-25) or time (2026-11-25T18:00:00Z). Default: 6 days (day) or 23 hours (hour) before `to`.',
  }).optional(),
  to: Moment.meta({
    description: 'Last period, inclusive (a date covers its whole day). Default and latest: now.',
  }).optional(),
  granularity: enumParam(GRANULARITIES)
    .meta({ description: 'Period length: day (kept 90 days) or hour (kept 7 days). Default: day.' })
    .default('day'),
  group_by: GroupBy.meta({
    description: 'Split rows by any of operator, widget, country (comma-separated). Default: one row per period.',
  }).optional(),
  currency: enumParam(CURRENCY_CODES)
    .meta({
      description:
        'ISO 4217 code of the currency deposit amounts and earnings are given in, converted at the latest daily reference rates. Default: USD.',
    })
    .default('USD'),
  format: enumParam(['json', 'csv'])
    .meta({ description: 'csv or json; overrides Accept (text/csv asks for CSV). Default: json.' })
    .optional(),
});

const DAY_MS = 86_400_000;
/** Periods in the default range, before `to`. */
const DEFAULT_SPAN = { day: 6, hour: 23 } as const;

/**
 * What `q` asks of `advertiserId`'s counters at `nowMs`: the first and last period.
 * @throws Problem 400 for a range before the retention, reversed, or starting in the future.
 */
export function reportRequest(advertiserId: string, q: z.infer<typeof ReportQuery>, nowMs: number): ReportRequest {
  const g = q.granularity;
  const step = PERIOD_SECONDS[g] * 1000;
  if (q.from && q.from.ms > nowMs) throw invalidParameters([{ param: 'from', message: 'must not be in the future' }]);
  const toMoment = q.to ? (q.to.wholeDay ? q.to.ms + DAY_MS - 1 : q.to.ms) : nowMs;
  const toMs = periodStart(Math.min(toMoment, nowMs), g);
  // The oldest period whose counters are all still kept (report-counters.ts: retention plus a period).
  const earliest = periodStart(nowMs - REPORT_RETENTION[g] * 1000, g);
  const fromMs = q.from ? periodStart(q.from.ms, g) : Math.max(earliest, toMs - DEFAULT_SPAN[g] * step);
  if (fromMs < earliest) {
    const kept = REPORT_RETENTION[g] / 86_400;
    throw invalidParameters([
      {
        param: 'from',
        message: `must not be before ${new Date(earliest).toISOString()}: ${g} counts are kept ${kept} days`,
      },
    ]);
  }
  if (fromMs > toMs) throw invalidParameters([{ param: 'to', message: 'must not be before from' }]);
  return { advertiserId, granularity: g, fromMs, toMs, groupBy: q.group_by ?? [], currency: q.currency };
}
