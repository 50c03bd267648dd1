/**
 * An advertiser's report: clicks, impressions and click-through rate per period (hour or UTC day),
 * and the conversions operators reported for those clicks (registrations, first deposits, deposits,
 * their amount and earnings in the report's currency), optionally split by operator, widget class
 * and country, read from the report counters (report-counters.ts). Reading is one pipeline of one
 * HGETALL per period; grouping and currency conversion (at the FX snapshot's reference rates) are pure.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { roundTo } from '../domain/aggregate.js';
import { convert, usdRate } from '../domain/fx.js';
import { fromMinorUnits, minorDigits } from '../domain/money.js';
import { CURRENCY_CODES, isCurrencyCode, type CurrencyCode, type FxData } from '../model/index.js';
import { dataUnavailable, Problem } from '../model/problem.js';
import { GRANULARITIES, PERIOD_SECONDS, reportKey, type Granularity } from './report-counters.js';

export const REPORT_DIMENSIONS = ['operator', 'widget', 'country'] as const;
export type Dimension = (typeof REPORT_DIMENSIONS)[number];

/** The column each dimension fills, in rows and in the CSV header. */
const COLUMN = { operator: 'operator_id', widget: 'widget', country: 'country' } as const satisfies Record<
  Dimension,
  string
>;

const Count = z.number().int().nonnegative();
const Ctr = z
  .number()
  .min(0)
  .nullable()
  .describe(
    'clicks / impressions, to 6 decimals; null without impressions (live-market and sportsbook widgets count none)',
  );

const Money = z.number().min(0);

/** The conversion columns of a row and of the totals. */
const Conversions = z.object({
  registrations: Count.describe(
    'Registrations operators reported for your clicks (postbacks), filed under the period they arrived in',
  ),
  first_deposits: Count.describe('First deposits operators reported for your clicks'),
  deposits: Count.describe('Deposits operators reported for your clicks, first deposits included'),
  conversion_rate: z
    .number()
    .min(0)
    .nullable()
    .describe(
      'registrations / clicks of the row, to 6 decimals; null without clicks (a registration may come a day after its click, so a small row can exceed 1)',
    ),
  deposit_amount: Money.describe("The deposits' amount in the report currency, to its minor unit"),
  earnings: Money.describe(
    'What operators reported these events earned you (the commission on each postback), in the report currency, to its minor unit',
  ),
  earnings_per_click: Money.nullable().describe(
    'earnings / clicks, in the report currency, to 4 decimals; null without clicks',
  ),
});

export const ReportRow = z.object({
  period_start: z.string().describe('Start of the hour or UTC day (RFC 3339, UTC)'),
  operator_id: z.string().optional().describe('The operator, when grouped by operator'),
  widget: z
    .string()
    .optional()
    .describe('The widget class (broad, event-specific, sportsbook, live-market), when grouped by widget'),
  country: z
    .string()
    .optional()
    .describe("The viewer's country (ISO 3166-1 alpha-2, ZZ unknown), when grouped by country"),
  impressions: Count.describe(
    'Widgets with your attribution reported as seen by people: once per visitor, operator shown, widget class and UTC day; bots left out',
  ),
  clicks: Count.describe(
    'Clicks on your links: one per visitor, operator and UTC day; bots, HTTP libraries and prefetches left out',
  ),
  ctr: Ctr,
  ...Conversions.shape,
});

export const ReportPayload = z.object({
  advertiser_id: z.string().describe('The advertiser whose attribution is counted (the caller)'),
  granularity: z.enum(GRANULARITIES).describe('The length of each period'),
  currency: z.enum(CURRENCY_CODES).describe('The currency of deposit_amount, earnings and earnings_per_click'),
  fx_as_of: z.iso
    .date()
    .nullable()
    .describe(
      'The date of the reference rates amounts in other currencies were converted at (the latest daily rates); null when none needed converting',
    ),
  from: z.string().describe('Start of the first period (RFC 3339, UTC)'),
  to: z.string().describe('End of the last period, exclusive (RFC 3339, UTC)'),
  group_by: z.array(z.enum(REPORT_DIMENSIONS)).describe('The dimensions rows are split by, in the order asked'),
  rows: z.array(ReportRow).describe('One row per period and group with any count, oldest first'),
  totals: z
    .object({
      impressions: Count.describe('Sum over the rows'),
      clicks: Count.describe('Sum over the rows'),
      ctr: Ctr,
      ...Conversions.shape,
    })
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
  /** The currency amounts are reported in. */
  currency: CurrencyCode;
}

/** The start of the period holding `ms`. */
export const periodStart = (ms: number, g: Granularity) => ms - (ms % (PERIOD_SECONDS[g] * 1000));

const periodName = (ms: number, g: Granularity) => new Date(ms).toISOString().slice(0, g === 'day' ? 10 : 13);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** One row's counts while they are summed: amounts per currency reported, in minor units. */
interface Tally {
  impressions: number;
  clicks: number;
  registrations: number;
  first_deposits: number;
  deposits: number;
  amount: Map<string, number>;
  earnings: Map<string, number>;
}

const COUNTS = { i: 'impressions', c: 'clicks', r: 'registrations', f: 'first_deposits', d: 'deposits' } as const;
const AMOUNTS = { a: 'amount', e: 'earnings' } as const;

const emptyTally = (): Tally => ({
  impressions: 0,
  clicks: 0,
  registrations: 0,
  first_deposits: 0,
  deposits: 0,
  amount: new Map(),
  earnings: new Map(),
});

/** Adds `n` to `map[key]`. */
const addTo = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** Adds the counts of `from` to `into`. */
function addTally(into: Tally, from: Tally): void {
  for (const k of Object.values(COUNTS)) into[k] += from[k];
  for (const k of Object.values(AMOUNTS)) for (const [cur, n] of from[k]) addTo(into[k], cur, n);
}

/** n / of to `digits` decimals; null when `of` is 0. */
const ratio = (n: number, of: number, digits: number) => (of > 0 ? roundTo(n / of, digits) : null);

/**
 * Turns amounts per reported currency into the report's currency. `used` hears of each conversion
 * made at a rate (the report then names the rates' date).
 * @throws Problem 503 when the FX snapshot has no rate for a currency needed.
 */
function inCurrency(
  byCurrency: Map<string, number>,
  to: CurrencyCode,
  fx: FxData | undefined,
  used: () => void,
): number {
  let sum = 0;
  for (const [from, minor] of byCurrency) {
    if (!isCurrencyCode(from)) continue;
    const amount = convert(fromMinorUnits(minor, from), from, to, fx);
    if (amount === undefined)
      throw dataUnavailable(
        `No ${usdRate(from, fx) === undefined ? from : to} reference rate has been loaded yet; try again shortly.`,
      );
    if (from !== to) used();
    sum += amount;
  }
  return sum;
}

/** A tally's figures: its counts, rates, and amounts in the report currency. */
function figures(t: Tally, currency: CurrencyCode, fx: FxData | undefined, used: () => void) {
  const digits = minorDigits(currency);
  const earnings = inCurrency(t.earnings, currency, fx, used);
  return {
    impressions: t.impressions,
    clicks: t.clicks,
    ctr: ratio(t.clicks, t.impressions, 6),
    registrations: t.registrations,
    first_deposits: t.first_deposits,
    deposits: t.deposits,
    conversion_rate: ratio(t.registrations, t.clicks, 6),
    deposit_amount: roundTo(inCurrency(t.amount, currency, fx, used), digits),
    earnings: roundTo(earnings, digits),
    earnings_per_click: ratio(earnings, t.clicks, 4),
  };
}

/**
 * The report from each period's counter hash (field `{kind}|operator|widget|country[|currency]` →
 * count), `hashes[i]` being the i-th period from `fromMs`, with amounts converted at `fx`'s
 * reference rates. Pure: the grouping, sums and conversions.
 * @throws Problem 503 when an amount's currency has no rate in `fx`.
 */
export function buildReport(
  req: ReportRequest,
  hashes: ReadonlyArray<Readonly<Record<string, string>>>,
  fx?: FxData,
): ReportPayload {
  const step = PERIOD_SECONDS[req.granularity] * 1000;
  const rows: ReportRow[] = [];
  const total = emptyTally();
  let usedFx = false;
  const used = () => (usedFx = true);
  hashes.forEach((hash, i) => {
    const start = req.fromMs + i * step;
    const groups = new Map<string, { dims: Record<Dimension, string>; tally: Tally }>();
    for (const [field, value] of Object.entries(hash)) {
      const [kind, operator, widget, country, currency] = field.split('|') as [
        string,
        string,
        string,
        string,
        string | undefined,
      ];
      const n = Number(value);
      if (!(kind in COUNTS || (kind in AMOUNTS && currency !== undefined)) || !Number.isSafeInteger(n)) continue;
      const dims = { operator, widget, country };
      const key = req.groupBy.map((d) => dims[d]).join('|');
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { dims, tally: emptyTally() }));
      if (kind in COUNTS) group.tally[COUNTS[kind as keyof typeof COUNTS]] += n;
      else addTo(group.tally[AMOUNTS[kind as keyof typeof AMOUNTS]], currency!, n);
    }
    for (const key of [...groups.keys()].sort()) {
      const { dims, tally } = groups.get(key)!;
      const row: ReportRow = { period_start: iso(start), ...figures(tally, req.currency, fx, used) };
      for (const d of req.groupBy) row[COLUMN[d]] = dims[d];
      addTally(total, tally);
      rows.push(row);
    }
  });
  const totals = figures(total, req.currency, fx, used);
  return {
    advertiser_id: req.advertiserId,
    granularity: req.granularity,
    currency: req.currency,
    fx_as_of: usedFx ? (fx?.asOfDate ?? null) : null,
    from: iso(req.fromMs),
    to: iso(req.fromMs + hashes.length * step),
    group_by: [...req.groupBy],
    rows,
    totals,
  };
}

/**
 * Reads the report's counters in one pipeline; amounts are converted at `fx`'s rates.
 * @throws when Redis fails; Problem 503 when a rate is missing.
 */
export async function readReport(redis: Redis, req: ReportRequest, fx?: FxData): Promise<ReportPayload> {
  const step = PERIOD_SECONDS[req.granularity] * 1000;
  const pipe = redis.pipeline();
  for (let ms = req.fromMs; ms <= req.toMs; ms += step)
    pipe.hgetall(reportKey(req.advertiserId, req.granularity, periodName(ms, req.granularity)));
  const results = (await pipe.exec()) ?? [];
  const hashes = results.map(([err, hash]) => {
    if (err) throw err;
    return hash as Record<string, string>;
  });
  return buildReport(req, hashes, fx);
}

/** Reads an advertiser's report (readReport at the latest FX rates), as the reports route serves it. */
export type ReportReader = (req: ReportRequest) => Promise<ReportPayload>;

/**
 * The reader of reports over `redis`, converting at the rates `fx` returns when called.
 * @throws Problem 503 when Redis cannot answer or a rate is missing.
 */
export function reportReader(redis: Redis, fx: () => FxData | undefined): ReportReader {
  return async (req) => {
    try {
      return await readReport(redis, req, fx());
    } catch (err) {
      if (err instanceof Problem) throw err;
      throw dataUnavailable('Reports cannot be read right now; try again shortly.');
    }
  };
}

/** The CSV columns after the period and the grouped ones, in order. */
export const CSV_FIGURES = [
  'impressions',
  'clicks',
  'ctr',
  'registrations',
  'first_deposits',
  'deposits',
  'conversion_rate',
  'deposit_amount',
  'earnings',
  'earnings_per_click',
] as const;

/** The report as CSV (RFC 4180): a header line, then one line per row; an empty rate for none. */
export function reportCsv(report: ReportPayload): string {
  const columns = ['period_start', ...report.group_by.map((d) => COLUMN[d]), ...CSV_FIGURES] as const;
  const lines = [columns.join(',')];
  // Every value is an id, a code, a timestamp or a number: none holds a comma, quote or line break.
  for (const row of report.rows) lines.push(columns.map((c) => String(row[c as keyof ReportRow] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
