import { describe, expect, it } from 'vitest';
import { byColumn, byDay, summed } from '../../src/embed/console/figures.js';
import { formats, NONE } from '../../src/embed/console/format.js';
import { buildReport } from '../../src/tracking/advertiser-report.js';

const FROM = Date.parse('2026-11-23T00:00:00Z');
const FX = { asOfDate: '2026-11-20', rates: { EUR: 0.92 } };
// Two days of counters as Redis holds them, read through the report's own code.
const report = buildReport(
  {
    advertiserId: 'acme',
    granularity: 'day',
    fromMs: FROM,
    toMs: FROM + 2 * 86_400_000,
    groupBy: ['operator'],
    currency: 'USD',
  },
  [
    { 'i|kalshi|broad|US': '10', 'c|kalshi|broad|US': '4', 'r|kalshi|broad|US': '1', 'e|kalshi|broad|US|USD': '1001' },
    {},
    {
      'i|kalshi|broad|US': '6',
      'c|kalshi|broad|US': '2',
      'c|bet365|broad|GB': '3',
      'f|bet365|broad|GB': '1',
      'd|bet365|broad|GB': '1',
      'a|bet365|broad|GB|EUR': '9200',
      'e|kalshi|broad|US|USD': '333',
    },
  ],
  FX,
);

describe('console figures', () => {
  it("sum an operator's rows over the range and work its rates out again from the sums", () => {
    expect(byColumn(report.rows, 'operator_id')).toEqual([
      {
        key: 'kalshi',
        figures: {
          impressions: 16,
          clicks: 6,
          registrations: 1,
          first_deposits: 0,
          deposits: 0,
          deposit_amount: 0,
          earnings: 13.34,
          ctr: 0.375,
          conversion_rate: 0.166667,
          earnings_per_click: 2.2233,
        },
      },
      {
        key: 'bet365',
        figures: {
          impressions: 0,
          clicks: 3,
          registrations: 0,
          first_deposits: 1,
          deposits: 1,
          deposit_amount: 100,
          earnings: 0,
          ctr: null,
          conversion_rate: 0,
          earnings_per_click: 0,
        },
      },
    ]);
    // Over every row: the report's own totals.
    expect(summed(report.rows)).toEqual(report.totals);
  });

  it('give every day of the range, a day without rows as zeros', () => {
    const days = byDay(report);
    expect(days.map((d) => [d.day, d.figures.clicks, d.figures.ctr])).toEqual([
      ['2026-11-23', 4, 0.4],
      ['2026-11-24', 0, null],
      ['2026-11-25', 5, 0.833333],
    ]);
  });
});

describe('console formats', () => {
  it('write numbers, rates, money and UTC days as the locale does, and nothing as a dash', () => {
    const de = formats('de-DE');
    // (Intl puts a no-break space between a German figure and its unit.)
    const written = [
      de.count(12345),
      de.percent(0.0345),
      de.percent(null),
      de.money(1234.5, 'EUR'),
      de.money(0.0312, 'EUR', true),
      de.money(1200, 'JPY'),
      de.money(null, 'USD'),
    ];
    expect(written.map((w) => w.replaceAll('\u00a0', ' '))).toEqual([
      '12.345',
      '3,45 %',
      NONE,
      '1.234,50 €',
      '0,0312 €',
      '1.200 ¥',
      NONE,
    ]);
    const en = formats('en-US');
    expect([en.count(12345), en.money(1234.5, 'USD'), en.day('2026-11-25'), en.longDay('2026-11-25')]).toEqual([
      '12,345',
      '$1,234.50',
      'Nov 25',
      'Nov 25, 2026',
    ]);
    // A UTC day stays that day wherever the viewer is.
    expect(formats('en-GB').day('2026-11-01T00:00:00Z')).toBe('1 Nov');
  });
});
