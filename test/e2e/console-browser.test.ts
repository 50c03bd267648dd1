/**
 * The advertiser console in a real browser: Debian's chromium under playwright-core, in German,
 * against the real API and worker on a real Redis. Visitors see an advertiser's widgets and click
 * on two days (the processes and the browser run on the test's clock, moved two days on half way), and operators
 * send signed postbacks; the console, signed in with the advertiser's key, then shows exactly the
 * figures GET /advertiser/v1/reports answers for the same range (totals, every day's bars, the
 * tables by operator, widget kind and jurisdiction, summed from the report's rows), written in the
 * browser's locale, and downloads the same CSV. It runs under its strict Content-Security-Policy
 * with no violation, has no axe-core violation light or dark, fits 375 px, and keeps the key in
 * sessionStorage only.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostbackSecrets, signPostback } from '../../src/auth/postback-secrets.js';
import { loadConfig } from '../../src/config.js';
import { roundTo } from '../../src/domain/aggregate.js';
import { formats } from '../../src/embed/console/format.js';
import { ReportPayload, type ReportRow } from '../../src/tracking/advertiser-report.js';
import { clickKey } from '../../src/tracking/click-ids.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { clickIdOf } from '../support/click-ids.js';
import { axeViolations, launchChromium } from '../support/browser.js';
import { waitUntil } from '../support/processes.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';

const DAY_MS = 86_400_000;
const LOCALE = 'de-DE';
const ADVERTISER = 'console-e2e';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
// The processes' (and the browser's) time: now, then two days on.
const clock = testClock();
const redis = useRedis();
let api: ServiceProcess;
let worker: ServiceProcess;
let apiKey: string;
let context: BrowserContext;
let profile: string;

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers: { 'user-agent': PERSON, ...headers }, redirect: 'manual' });
const report = async (query: string) =>
  ReportPayload.parse(
    await (await get(`/advertiser/v1/reports?${query}`, { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey })).json(),
  );

/** Visitors at `addresses` see the advertiser's broad widget, report it seen and follow two links; operators report conversions. */
type Fields = Record<string, string>;
async function traffic(
  addresses: string[],
  secrets: Map<string, string>,
  store: PostbackSecrets,
  conversions: (i: number) => Fields[],
) {
  const clicks: Array<{ operator: string; id: string }> = [];
  for (const address of addresses) {
    const broad = BroadWidgetPayload.parse(
      await (
        await get(`/v1/widgets/broad?fallback_geo=US-NJ&advertiser_id=${ADVERTISER}&limit=3`, {
          'x-forwarded-for': address,
        })
      ).json(),
    );
    const seen = new URL(broad.impression_url!);
    expect(seen.searchParams.get('a')).toBe(ADVERTISER);
    expect((await get(`${seen.pathname}${seen.search}`, { 'x-forwarded-for': address })).status).toBe(204);
    for (const o of broad.operators.slice(0, 2)) {
      const link = new URL(o.routing.web_url);
      const res = await get(`${link.pathname}${link.search}`, { 'x-forwarded-for': address });
      expect(res.status).toBe(302);
      const operator = link.searchParams.get('o')!;
      const id = clickIdOf(link, res.headers.get('location')!)!;
      clicks.push({ operator, id });
    }
  }
  for (const c of clicks) {
    if (!secrets.has(c.operator)) secrets.set(c.operator, await store.create(c.operator, new Date(clock.now())));
    await waitUntil(
      async () => (await redis.client.exists(clickKey(c.id))) === 1,
      5_000,
      () => `click ${c.id} not written\n${api.output()}`,
    );
  }
  for (const [i, c] of clicks.entries()) {
    for (const fields of conversions(i)) {
      const query = signPostback(
        secrets.get(c.operator)!,
        new URLSearchParams({ operator: c.operator, click_id: c.id, ...fields }).toString(),
      );
      expect(await (await get(`/v1/postback?${query}`)).json()).toMatchObject({ status: 'counted' });
    }
  }
  return clicks;
}

beforeAll(async () => {
  const env = testEnv(redis.url, { TRUST_PROXY: '127.0.0.1,::1', ...clock.env });
  [worker, api] = await Promise.all([spawnProcess('workers/main.ts', env), spawnProcess('src/main.ts', env)]);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Console E2E', new Date(clock.now()));
  // Links credit the advertiser once the API has heard of it: a notice, within a moment, or on a
  // busy machine whose Redis answered the reload too late, the 30 s repair reload.
  const credited = async () =>
    new URL(
      BroadWidgetPayload.parse(
        await (await get(`/v1/widgets/broad?fallback_geo=US-NJ&advertiser_id=${ADVERTISER}&limit=3`)).json(),
      ).impression_url!,
    ).searchParams.get('a') === ADVERTISER;
  await waitUntil(credited, 45_000, () => `the API never credited ${ADVERTISER}\n${api.output()}`);
  const store = new PostbackSecrets(redis.client, loadConfig(testEnv(redis.url)).apiKeyPepper);
  const secrets = new Map<string, string>();
  // The first day: three visitors; the first and third clicks register, the first deposits in euros.
  const early = await traffic(['10.42.0.1', '10.42.0.2', '10.42.0.3'], secrets, store, (i): Fields[] =>
    i === 0
      ? [
          { event: 'registration', event_id: 'r-0' },
          { event: 'first_deposit', event_id: 'f-0', amount: '100.00', currency: 'EUR', commission: '40.00' },
        ]
      : i === 2
        ? [{ event: 'registration', event_id: 'r-2' }]
        : [],
  );
  // Two days on (the processes follow the clock within a moment: the report's last day says when).
  clock.advance(2 * DAY_MS);
  const tomorrow = new Date(Math.floor(clock.now() / DAY_MS) * DAY_MS + DAY_MS).toISOString().replace('.000Z', 'Z');
  await waitUntil(
    async () => (await report('granularity=day')).to === tomorrow,
    10_000,
    () => `the API did not follow the clock\n${api.output()}`,
  );
  await traffic(['10.42.0.4', '10.42.0.5'], secrets, store, (i): Fields[] =>
    i === 1
      ? [
          { event: 'registration', event_id: 't-1' },
          { event: 'first_deposit', event_id: 'tf-1', amount: '25.50', currency: 'GBP', commission: '10' },
          { event: 'deposit', event_id: 'td-1', amount: '40', currency: 'USD' },
        ]
      : [],
  );
  // A click of the first day that registers only now.
  const late = early[1]!;
  expect(
    (
      await get(
        `/v1/postback?${signPostback(secrets.get(late.operator)!, `operator=${late.operator}&click_id=${late.id}&event=registration&event_id=late-1`)}`,
      )
    ).status,
  ).toBe(200);

  profile = mkdtempSync(join(tmpdir(), 'pw-console-'));
  context = await launchChromium(profile, { width: 1280, height: 900 }, LOCALE);
  // The browser's today is the processes' (its timers still run).
  await context.clock.setFixedTime(clock.now());
  // Before any script of a page: CSP violations are recorded.
  await context.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { __csp: violations });
    document.addEventListener('securitypolicyviolation', (e) =>
      violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  // Nothing but the service is reached.
  await context.route(
    () => true,
    (route) => (new URL(route.request().url()).origin === api.base ? route.continue() : route.abort()),
  );
}, 180_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await Promise.all([api?.stop(), worker?.stop()]);
});

/** Opens the console at `width` px and signs in. */
async function signedIn(width = 1280): Promise<Page> {
  const p = await context.newPage();
  await p.setViewportSize({ width, height: 900 });
  const res = await p.goto(`${api.base}/advertiser/console`);
  expect(res!.headers()['content-security-policy']).toMatch(
    /^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'/,
  );
  await p.fill('#advertiser-id', ADVERTISER);
  await p.fill('#api-key', apiKey);
  await p.click('#signin-form button[type=submit]');
  await p.locator('#board[data-loaded]').waitFor();
  return p;
}

type Figure =
  | 'impressions'
  | 'clicks'
  | 'ctr'
  | 'registrations'
  | 'first_deposits'
  | 'conversion_rate'
  | 'deposits'
  | 'deposit_amount'
  | 'earnings'
  | 'earnings_per_click';
const FIGURES: Figure[] = [
  'impressions',
  'clicks',
  'ctr',
  'registrations',
  'first_deposits',
  'conversion_rate',
  'deposits',
  'deposit_amount',
  'earnings',
  'earnings_per_click',
];
const COUNTS = ['impressions', 'clicks', 'registrations', 'first_deposits', 'deposits'] as const;

/** How the console must write a figure of `currency` in LOCALE. */
function written(figure: Figure, value: number | null, currency: string): string {
  const f = formats(LOCALE);
  if (figure === 'ctr' || figure === 'conversion_rate') return f.percent(value);
  if (figure === 'deposit_amount' || figure === 'earnings') return f.money(value, currency);
  if (figure === 'earnings_per_click') return f.money(value, currency, true);
  return f.count(value!);
}

/** The figures of report rows summed by `column`, rates by the report's rules: what a table must show. */
function sums(rows: readonly ReportRow[], column: 'operator_id' | 'widget' | 'country') {
  const out = new Map<string, Record<Figure, number | null>>();
  for (const row of rows) {
    const key = row[column]!;
    const s =
      out.get(key) ??
      ({
        impressions: 0,
        clicks: 0,
        registrations: 0,
        first_deposits: 0,
        deposits: 0,
        deposit_amount: 0,
        earnings: 0,
      } as Record<Figure, number | null>);
    for (const k of [...COUNTS, 'deposit_amount', 'earnings'] as const) s[k] = roundTo(s[k]! + row[k], 2);
    out.set(key, s);
  }
  const ratio = (n: number, of: number, digits: number) => (of > 0 ? roundTo(n / of, digits) : null);
  for (const s of out.values()) {
    s.ctr = ratio(s.clicks!, s.impressions!, 6);
    s.conversion_rate = ratio(s.registrations!, s.clicks!, 6);
    s.earnings_per_click = ratio(s.earnings!, s.clicks!, 4);
  }
  return out;
}

/** The figure cells inside `scope` as {figure: [data-value, text]}. */
const cells = (p: Page, scope: string) =>
  p
    .locator(`${scope} [data-figure]`)
    .evaluateAll((els) =>
      Object.fromEntries(
        els.map((e) => [(e as HTMLElement).dataset.figure!, [(e as HTMLElement).dataset.value!, e.textContent]]),
      ),
    );

describe('/advertiser/console', () => {
  it("shows the figures the reports API answers for the same range, in the browser's locale", async () => {
    const p = await signedIn();
    await p.selectOption('#currency', 'EUR');
    await p.click('#range button[type=submit]');
    await p.locator('#board[data-loaded*="currency=EUR"]').waitFor();
    const query = (await p.locator('#board').getAttribute('data-loaded'))!;
    const total = await report(query);
    // Every kind of figure is there to compare, over more than one day.
    expect(total.totals).toMatchObject({
      impressions: expect.any(Number),
      registrations: 4,
      first_deposits: 2,
      deposits: 3,
    });
    expect(total.totals.deposit_amount).toBeGreaterThan(0);
    expect(total.fx_as_of).not.toBeNull();
    expect(new Set(total.rows.filter((r) => r.clicks > 0).map((r) => r.period_start)).size).toBe(2);

    const totals = await cells(p, '#totals');
    for (const figure of FIGURES) {
      const value = total.totals[figure];
      expect(totals[figure], figure).toEqual([value === null ? '' : String(value), written(figure, value, 'EUR')]);
    }
    // Every day's bars.
    const days: string[] = [];
    for (let ms = Date.parse(total.from); ms < Date.parse(total.to); ms += DAY_MS)
      days.push(new Date(ms).toISOString().slice(0, 10));
    expect(days).toHaveLength(7);
    for (const [series, figure] of [
      ['impressions', 'impressions'],
      ['clicks', 'clicks'],
      ['registrations', 'registrations'],
      ['first-deposits', 'first_deposits'],
    ] as const) {
      const bars = await p
        .locator(`rect[data-series="${series}"]`)
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-day'), Number(e.getAttribute('data-value'))]));
      expect(bars, series).toEqual(
        days.map((day) => [
          day,
          total.rows.filter((r) => r.period_start.startsWith(day)).reduce((n, r) => n + r[figure], 0),
        ]),
      );
    }
    // The tables: the grouped reports' rows summed over the range.
    for (const [id, by, column] of [
      ['by-operator', 'operator', 'operator_id'],
      ['by-widget', 'widget', 'widget'],
      ['by-country', 'country', 'country'],
    ] as const) {
      const grouped = await report(`${query}&group_by=${by}`);
      const want = sums(grouped.rows, column);
      const keys = await p
        .locator(`#${id} tbody tr`)
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.key));
      expect(keys.sort(), id).toEqual([...want.keys()].sort());
      for (const [key, figures] of want) {
        const row = await cells(p, `#${id} tr[data-key="${key}"]`);
        for (const figure of FIGURES)
          expect(row[figure], `${id} ${key} ${figure}`).toEqual([
            figures[figure] === null ? '' : String(figures[figure]),
            written(figure, figures[figure], 'EUR'),
          ]);
      }
    }
    expect(await p.locator('#by-country tbody th').first().textContent()).toBe(
      `${new Intl.DisplayNames(LOCALE, { type: 'region' }).of('US')} (US)`,
    );
    expect(await p.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await p.close();
  });

  it("downloads the report as the API's CSV for the range", async () => {
    const p = await signedIn();
    const query = (await p.locator('#board').getAttribute('data-loaded'))!;
    const [download] = await Promise.all([p.waitForEvent('download'), p.click('#csv')]);
    const file = await download.path();
    const api = await (
      await get(`/advertiser/v1/reports?${query}&group_by=operator,widget,country&format=csv`, {
        'x-advertiser-id': ADVERTISER,
        'x-api-key': apiKey,
      })
    ).text();
    expect(readFileSync(file, 'utf8')).toBe(api);
    expect(download.suggestedFilename()).toMatch(/^predictwire-console-e2e-day-.*\.csv$/);
    expect(await p.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await p.close();
  });

  it("keeps the key in the tab's sessionStorage only, refuses a wrong one, and forgets it on sign-out", async () => {
    const p = await context.newPage();
    await p.goto(`${api.base}/advertiser/console`);
    await p.fill('#advertiser-id', ADVERTISER);
    await p.fill('#api-key', `${apiKey.slice(0, -2)}xx`);
    await p.click('#signin-form button[type=submit]');
    await expect.poll(() => p.locator('#signin-error').textContent()).toMatch(/do not match/);
    expect(await p.evaluate(() => sessionStorage.length)).toBe(0);

    await p.fill('#api-key', apiKey);
    await p.click('#signin-form button[type=submit]');
    await p.locator('#board[data-loaded]').waitFor();
    const stored = await p.evaluate(() => ({
      session: { ...sessionStorage },
      local: localStorage.length,
      cookie: document.cookie,
      url: location.href,
    }));
    expect(stored.session).toEqual({ 'predictwire.console': JSON.stringify({ id: ADVERTISER, key: apiKey }) });
    expect(stored).toMatchObject({ local: 0, cookie: '', url: `${api.base}/advertiser/console` });
    expect((await context.cookies()).length).toBe(0);
    // A reload in the same tab stays signed in; a new tab does not.
    await p.reload();
    await p.locator('#board[data-loaded]').waitFor();
    const other = await context.newPage();
    await other.goto(`${api.base}/advertiser/console`);
    await expect.poll(() => other.locator('#signin').isVisible()).toBe(true);
    await other.close();
    await p.click('#signout');
    expect(await p.evaluate(() => sessionStorage.length)).toBe(0);
    await expect.poll(() => p.locator('#signin').isVisible()).toBe(true);
    await p.close();
  });

  it('has no accessibility violation light or dark, and fits 375 px', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const p = await signedIn();
      await p.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(p), scheme).toEqual([]);
      await p.close();
    }
    const narrow = await signedIn(375);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeViolations(narrow)).toEqual([]);
    await narrow.screenshot({ path: join(tmpdir(), 'pw-console-375.png'), fullPage: true });
    expect(await narrow.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await narrow.close();
    const signin = await context.newPage();
    await signin.goto(`${api.base}/advertiser/console`);
    expect(await axeViolations(signin)).toEqual([]);
    await signin.close();
  }, 90_000);
});
