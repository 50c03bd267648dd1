/**
 * GET /advertiser/v1/reports (docs/contract.md, Reports): the calling advertiser's clicks,
 * impressions and click-through rate per hour or day, and the conversions operators reported for
 * those clicks with their amounts in the asked currency (at the FX snapshot's reference rates), as
 * JSON or CSV. The declaration asks for authentication (the pipeline checks the key first,
 * auth.ts); the counters are read by tracking/advertiser-report.ts (one Redis pipeline per
 * request, off the widget path).
 */
import { z } from 'zod';
import { GRANULARITIES, PERIOD_SECONDS, REPORT_RETENTION } from '../../tracking/report-counters.js';
import {
  periodStart,
  REPORT_DIMENSIONS,
  reportCsv,
  type Dimension,
  type ReportReader,
  type ReportRequest,
} from '../../tracking/advertiser-report.js';
import { CURRENCY_CODES } from '../../model/index.js';
import { enumParam } from '../params.js';
import { invalidParameters } from '../../model/problem.js';
import { json } from '../../transport/respond.js';
import { headerList } from '../../transport/types.js';
import { HEADER_VALUE, operation, param, queryParams } from '../openapi-parts.js';
import { ref } from '../openapi-schemas.js';
import { route } from '../route.js';

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

const JSON_HEADERS = { 'cache-control': 'private, no-store', vary: 'Accept' };

/** The report route: `read` reads the counters (tracking/advertiser-report.ts). */
export const reports = route({
  path: '/advertiser/v1/reports',
  reads: ['x-advertiser-id', 'x-api-key', 'accept'],
  query: ReportQuery,
  auth: true,
  openapi: () =>
    operation('getAdvertiserReport', {
      tag: 'advertiser',
      summary: 'Your clicks, impressions, click-through rate and conversions per hour or day, as JSON or CSV',
      description:
        'The counts the ranking uses: a click once per visitor, operator and UTC day; bots, HTTP libraries and prefetches left out. Conversions are what operators reported for your clicks by postback (`/v1/postback`), filed under the period they arrived in; amounts in `currency` at the latest daily reference rates. Days are kept 90 days, hours 7. `Accept: text/csv` or `format=csv` for CSV (columns: period_start, the group_by columns, impressions, clicks, ctr, registrations, first_deposits, deposits, conversion_rate, deposit_amount, earnings, earnings_per_click).',
      payload: 'ReportPayload',
      alsoAs: { 'text/csv': ref('ReportCsv') },
      params: [
        ...queryParams(ReportQuery),
        param('Accept', 'header', 'text/csv for CSV; anything else: JSON (format= overrides it).', HEADER_VALUE),
      ],
      problems: [],
      advertiser: true,
    }),
  handler:
    ({ read, now }: { read: ReportReader; now(): number }) =>
    async ({ req, query: q }) => {
      // The advertiser whose key the auth stage checked.
      const advertiserId = req.headers['x-advertiser-id']!;
      const report = await read(reportRequest(advertiserId, q, now()));
      const csv = q.format === 'csv' || (q.format === undefined && /\btext\/csv\b/i.test(req.headers.accept ?? ''));
      if (!csv) return json(200, report, JSON_HEADERS);
      return {
        status: 200,
        headers: headerList({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="predictwire-${advertiserId}-${report.granularity}-${report.from.slice(0, 13)}.csv"`,
          'cache-control': 'private, no-store',
          vary: 'Accept',
        }),
        body: reportCsv(report),
      };
    },
});
