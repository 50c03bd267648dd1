/**
 * GET /advertiser/v1/reports (docs/contract.md, Reports): the calling advertiser's clicks,
 * impressions and click-through rate per hour or day, and the conversions operators reported for
 * those clicks with their amounts in the asked currency (at the FX snapshot's reference rates), as
 * JSON or CSV. The declaration asks for authentication (the pipeline checks the key first,
 * auth.ts); the counters are read by tracking/advertiser-report.ts (one Redis pipeline per
 * request, off the widget path).
 */
import { reportCsv, type ReportReader } from '../../tracking/advertiser-report.js';
import { ReportQuery, reportRequest } from '../report-query.js';
import { json } from '../../transport/respond.js';
import { headerList } from '../../transport/types.js';
import { HEADER_VALUE, operation, param, queryParams } from '../openapi-parts.js';
import { ref } from '../openapi-schemas.js';
import { route } from '../route.js';

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
