/**
 * Reports against the real service: visitors (distinct addresses through a trusted proxy) and bots
 * load widgets with an advertiser's attribution and follow their links; the report then reads back
 * exactly the impressions and clicks the service should count (one click per visitor and operator,
 * bots left out), in JSON and CSV, grouped several ways. Expected counts come from the payloads
 * the visitors were served.
 */
import { describe, expect, it } from 'vitest';
import { ReportPayload } from '../../src/tracking/advertiser-report.js';
import { BroadWidgetPayload, CatalogPayload, EventWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { spawnEntry } from '../support/processes.js';
import { requestThroughTwoWorkers, TWO_LOGGED_WORKERS } from '../support/api-workers.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, useService } from '../support/service.js';

const redis = useRedis();
const ADVERTISER = 'reports-e2e';
let apiKey: string;
// Two API workers, every request in the access log: each visitor's impression reports reach both.
const service = useService(redis, { TRUST_PROXY: '127.0.0.1,::1', ...TWO_LOGGED_WORKERS }, async () => {
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Reports E2E', new Date());
});

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A GET as the client at `address` (private addresses: the country comes from fallback_geo). */
const get = (path: string, address: string, userAgent: string, headers: Record<string, string> = {}) =>
  fetch(`${service.api.base}${path}`, {
    headers: { 'user-agent': userAgent, 'x-forwarded-for': address, ...headers },
    redirect: 'manual',
  });
const adv = (path: string, headers: Record<string, string> = {}) =>
  get(path, '127.0.0.1', PERSON, { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey, ...headers });

type Dims = { operator: string; widget: string; country: string };
const DIMENSIONS = ['operator', 'widget', 'country'] as const;

/** What the service should count: impressions and clicks per operator, widget and country. */
class Expected {
  readonly counts = new Map<string, { dims: Dims; impressions: number; clicks: number }>();
  readonly #clicked = new Set<string>();

  #entry(dims: Dims) {
    const key = `${dims.operator}|${dims.widget}|${dims.country}`;
    let e = this.counts.get(key);
    if (!e) this.counts.set(key, (e = { dims, impressions: 0, clicks: 0 }));
    return e;
  }

  served(operators: readonly string[], widget: string, country: string) {
    for (const operator of new Set(operators)) this.#entry({ operator, widget, country }).impressions++;
  }

  /** A person's click: counted once per visitor and operator (the first one, from whichever widget). */
  clicked(visitor: string, link: URL) {
    const operator = link.searchParams.get('o')!;
    if (this.#clicked.has(`${visitor}|${operator}`)) return;
    this.#clicked.add(`${visitor}|${operator}`);
    this.#entry({ operator, widget: link.searchParams.get('w')!, country: link.searchParams.get('c')!.slice(0, 2) })
      .clicks++;
  }

  /** Sums grouped by `groupBy`, keyed like the report's rows. */
  grouped(groupBy: readonly (keyof Dims)[]) {
    const out = new Map<string, { impressions: number; clicks: number }>();
    for (const { dims, impressions, clicks } of this.counts.values()) {
      const key = groupBy.map((d) => dims[d]).join('|');
      const g = out.get(key) ?? { impressions: 0, clicks: 0 };
      out.set(key, { impressions: g.impressions + impressions, clicks: g.clicks + clicks });
    }
    return out;
  }
}

/** Report rows summed over periods (a test may straddle an hour), keyed by their group columns. */
function rowsByGroup(
  rows: ReadonlyArray<Record<string, string | number | null | undefined>>,
  groupBy: readonly (keyof Dims)[],
) {
  const column = { operator: 'operator_id', widget: 'widget', country: 'country' } as const;
  const out = new Map<string, { impressions: number; clicks: number }>();
  for (const row of rows) {
    const key = groupBy.map((d) => row[column[d]]).join('|');
    const g = out.get(key) ?? { impressions: 0, clicks: 0 };
    out.set(key, { impressions: g.impressions + Number(row.impressions), clicks: g.clicks + Number(row.clicks) });
  }
  return out;
}

/** CSV text as rows of named values. */
function parseCsv(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text.trimEnd().split('\r\n');
  const columns = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i]!, v])));
}

describe('GET /advertiser/v1/reports', () => {
  it('reads back exactly the impressions and clicks of people, in JSON and CSV, grouped several ways', async () => {
    const startHour = `${new Date().toISOString().slice(0, 13)}:00:00Z`;
    const catalog = CatalogPayload.parse(await (await get('/v1/catalog', '127.0.0.1', PERSON)).json());
    // An event with operators to show in New Jersey (asked as a bot: nothing counted); in GB it may have none.
    let slug = '';
    for (const e of catalog.events) {
      const pools = await Promise.all(
        ['US-NJ'].map(async (geo) =>
          EventWidgetPayload.parse(
            await (await get(`/v1/widgets/event?slug=${e.slug}&fallback_geo=${geo}`, '127.0.0.1', BOT)).json(),
          ).outcomes.flatMap((o) => o.comparison_pool),
        ),
      );
      if (pools.every((p) => p.length > 0)) {
        slug = e.slug;
        break;
      }
    }
    expect(slug).not.toBe('');
    const expected = new Expected();
    const visitors = [
      { address: '10.27.0.1', geo: 'GB' },
      { address: '10.27.0.2', geo: 'GB' },
      { address: '10.27.0.3', geo: 'US-NJ' },
      { address: '10.27.0.4', geo: 'US-NJ' },
    ];
    const bot = { address: '10.27.0.9', geo: 'GB' };
    const linksOf = new Map<string, URL[]>();
    for (const v of [...visitors, bot]) {
      const ua = v === bot ? BOT : PERSON;
      const broad = BroadWidgetPayload.parse(
        await (
          await get(`/v1/widgets/broad?fallback_geo=${v.geo}&advertiser_id=${ADVERTISER}&limit=3`, v.address, ua)
        ).json(),
      );
      const event = EventWidgetPayload.parse(
        await (
          await get(`/v1/widgets/event?slug=${slug}&fallback_geo=${v.geo}&advertiser_id=${ADVERTISER}`, v.address, ua)
        ).json(),
      );
      const broadLinks = broad.operators.map((o) => new URL(o.routing.web_url));
      const eventLinks = event.outcomes.flatMap((o) => o.comparison_pool.map((c) => new URL(c.deep_link)));
      expect(broadLinks.length).toBeGreaterThan(0);
      if (v.geo === 'US-NJ') expect(eventLinks.length).toBeGreaterThan(0);
      for (const link of [...broadLinks, ...eventLinks]) expect(link.searchParams.get('a')).toBe(ADVERTISER);
      // Fetching counts nothing: a widget counts when it reports being viewable, with the signed
      // impression URL its payload carries, once per visitor and day however many times and
      // through whichever API worker it is reported.
      for (const url of [broad.impression_url, event.impression_url]) {
        if (url === null) continue;
        const u = new URL(url);
        const statuses = await requestThroughTwoWorkers(service.api, `${service.api.base}${u.pathname}${u.search}`, {
          'user-agent': ua,
          'x-forwarded-for': v.address,
        });
        expect(statuses.every((s) => s === 204)).toBe(true);
      }
      if (v !== bot) {
        expected.served(
          broadLinks.map((l) => l.searchParams.get('o')!),
          'broad',
          broad.resolved_geo!.slice(0, 2),
        );
        expected.served(
          event.outcomes.flatMap((o) => o.comparison_pool.map((c) => c.operator_id)),
          'event-specific',
          event.resolved_geo!.slice(0, 2),
        );
      }
      linksOf.set(v.address, [...broadLinks.slice(0, 2), ...eventLinks.slice(0, 1)]);
    }
    // Each person follows two broad links and an event link; the first one twice. The bot, and an
    // HTTP library, follow theirs too: redirected, not counted.
    for (const v of visitors) {
      const links = linksOf.get(v.address)!;
      for (const link of [links[0]!, ...links]) {
        expect((await get(`${link.pathname}${link.search}`, v.address, PERSON)).status).toBe(302);
        expected.clicked(v.address, link);
      }
    }
    for (const link of linksOf.get(bot.address)!)
      expect((await get(`${link.pathname}${link.search}`, bot.address, BOT)).status).toBe(302);
    const curl = linksOf.get(visitors[0]!.address)![1]!;
    expect((await get(`${curl.pathname}${curl.search}`, '10.27.0.8', 'curl/8.4.0')).status).toBe(302);

    // Two countries, two widget classes: every grouping below splits something.
    expect(expected.grouped(['country']).size).toBe(2);
    expect(expected.grouped(['widget']).size).toBe(2);
    const total = expected.grouped([]).get('')!;
    expect(total.clicks).toBeGreaterThan(visitors.length);
    const query = (g: string) => `/advertiser/v1/reports?granularity=hour&from=${startHour}&group_by=${g}`;
    // Counters are written about once a second: wait for the totals, then compare every group.
    await expect
      .poll(async () => ReportPayload.parse(await (await adv(query(''))).json()).totals, {
        timeout: 5_000,
        interval: 200,
      })
      .toMatchObject({ impressions: total.impressions, clicks: total.clicks });

    const groupings: Array<(keyof Dims)[]> = [['operator'], ['widget', 'country'], [...DIMENSIONS]];
    for (const groupBy of groupings) {
      const want = expected.grouped(groupBy);
      const json = ReportPayload.parse(await (await adv(query(groupBy.join(',')))).json());
      expect(json.group_by).toEqual(groupBy);
      expect(rowsByGroup(json.rows, groupBy)).toEqual(want);
      for (const row of json.rows)
        expect(row.ctr).toBe(row.impressions > 0 ? Math.round((row.clicks / row.impressions) * 1e6) / 1e6 : null);

      const byAccept = await adv(query(groupBy.join(',')), { accept: 'text/csv' });
      expect(byAccept.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const csvRows = parseCsv(await byAccept.text());
      expect(rowsByGroup(csvRows, groupBy)).toEqual(want);
      const byFormat = await adv(`${query(groupBy.join(','))}&format=csv`);
      expect(parseCsv(await byFormat.text())).toEqual(csvRows);
    }
    // By day: the same totals, one row per group.
    const today = new Date().toISOString().slice(0, 10);
    const daily = ReportPayload.parse(
      await (await adv(`/advertiser/v1/reports?from=${today}&group_by=operator,widget,country`)).json(),
    );
    expect(rowsByGroup(daily.rows, [...DIMENSIONS])).toEqual(expected.grouped([...DIMENSIONS]));
    expect(daily.granularity).toBe('day');

    // The CLI prints the same report as the API's CSV (JSON with --json).
    const args = [
      'report',
      ADVERTISER,
      '--granularity',
      'hour',
      '--from',
      startHour,
      '--group-by',
      'operator,widget,country',
    ];
    const env = { ...process.env, REDIS_URL: redis.url };
    const csvRun = spawnEntry('src/tools/advertiser.ts', args, env);
    expect(await csvRun.exit).toBe(0);
    const apiCsv = await (await adv(`${query('operator,widget,country')}&format=csv`)).text();
    expect(csvRun.output()).toBe(apiCsv.replaceAll('\r\n', '\n'));
    const jsonRun = spawnEntry('src/tools/advertiser.ts', [...args, '--json'], env);
    expect(await jsonRun.exit).toBe(0);
    expect(ReportPayload.parse(JSON.parse(jsonRun.output()))).toEqual(
      ReportPayload.parse(await (await adv(query('operator,widget,country'))).json()),
    );
    const bad = spawnEntry('src/tools/advertiser.ts', ['report', ADVERTISER, '--granularity', 'week'], env);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toMatch(/--granularity must be one of day, hour/);
  });

  it('refuses bad ranges with problems that say why', async () => {
    const longAgo = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
    const eightDays = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[string, string, RegExp]> = [
      ['from=2026-02-30', 'from', /UTC date/],
      ['from=yesterday', 'from', /UTC date/],
      ['granularity=week', 'granularity', /day, hour/],
      ['group_by=operator,operator', 'group_by', /distinct/],
      ['group_by=campaign', 'group_by', /operator, widget, country/],
      ['format=xml', 'format', /json, csv/],
      [`from=${longAgo}`, 'from', /kept 90 days/],
      [`from=${eightDays}&granularity=hour`, 'from', /kept 7 days/],
      ['from=2999-01-01', 'from', /future/],
      [`from=${eightDays}&to=${longAgo.slice(0, 8)}01`, 'to', /before from/],
    ];
    for (const [q, param, message] of cases) {
      const res = await adv(`/advertiser/v1/reports?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as { code: string; errors: Array<{ param: string; message: string }> };
      expect(body.code).toBe('invalid_parameter');
      expect(body.errors[0]!.param, q).toBe(param);
      expect(body.errors[0]!.message, q).toMatch(message);
    }
    expect((await get('/advertiser/v1/reports', '127.0.0.1', PERSON)).status).toBe(401);
  });
});
