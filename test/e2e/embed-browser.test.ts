/**
 * <predictwire-widget> in a real browser: Debian's chromium driven by playwright-core (nothing
 * downloads a browser) against the real API and worker on a real Redis. The demo page is loaded as
 * a person would open it; publishers' pages are served by a server of the test's own on another
 * origin, some under a strict Content-Security-Policy. Expected values come from the service's own
 * payloads and the operator catalogue. Requests to any other host are answered by the test (no
 * network). Screenshots of every widget go to test-results/embed/ (git-ignored) for a person to
 * look at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorById } from '../../src/catalog/operators.js';
import { freePort } from '../../src/runtime/free-port.js';
import { MAX_GZIPPED_BYTES } from '../../src/embed/bundle.js';
import { demoVariants, demoWidgets } from '../../src/embed/demo-page.js';
import { localNumber } from '../../src/embed/element/format.js';
import { isEmpty, type Payload } from '../../src/embed/element/view.js';
import { recordHistory } from '../../src/store/price-history.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { EventHistoryPayload } from '../../src/widgets/event-history.js';
import {
  BroadWidgetPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import { axeViolations, launchChromium } from '../support/browser.js';
import { root, waitUntil } from '../support/processes.js';
import { publishTick, seedStrike } from '../support/live.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { testClock } from '../support/test-clock.js';
import { cpiSlug, fedSlug } from '../support/slugs.js';

const ARTIFACTS = resolve(root, 'test-results/embed');
const STRIKE = 97_000;
// The processes' time a minute into a 15-minute window: no live window rolls under the file (it
// takes about a minute of the 14 left), so the live window's spot path always holds its ticks.
const WINDOW_MS = 15 * 60_000;
const clock = testClock((60_000 - (Date.now() % WINDOW_MS) + WINDOW_MS) % WINDOW_MS);
// The Fed and CPI events the processes list on their clock.
const FED = fedSlug(clock.now());
const CPI = cpiSlug(clock.now());

const redis = useRedis();
let api: ServiceProcess;
let worker: ServiceProcess;
let context: BrowserContext;
let page: Page;
let profile: string;
/** The publisher's own server (another origin): path -> [html, strict CSP?]. */
let publisher: Server;
let publisherBase: string;
const publisherPages = new Map<string, { html: string; csp: boolean }>();
/** Every URL on another host the browser tried to reach (answered by the test). */
const external: string[] = [];
/** Every /v1/click request the browser made, with the service's answer. */
const clicks: Array<{ url: string; status: number; location: string | undefined }> = [];

/** The demo page's element for a kind and theme (its kinds come before its variants). */
const widget = (kind: string, theme: 'light' | 'dark' = 'light') =>
  page.locator(`predictwire-widget[kind="${kind}"]${theme === 'dark' ? '[theme="dark"]' : ':not([theme])'}`).first();

/** An outcome's operators as the event widget lists them: the flagged best first, else the payload's order. */
const bestFirst = <T extends { is_best_odds: boolean }>(pool: readonly T[]): T[] => [
  ...pool.filter((c) => c.is_best_odds),
  ...pool.filter((c) => !c.is_best_odds),
];

const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${api.base}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return res.json();
};

/** The strict policy of issue 26: the API for the script and the socket, nothing inline. */
const strictCsp = () => {
  const ws = api.base.replace(/^http/, 'ws');
  return `default-src 'self'; script-src ${api.base}; connect-src ${api.base} ${ws}; style-src 'self'`;
};

/**
 * A publisher's page at `path` on the test's own origin: its own heading and text around the
 * elements, the script in its head as docs/embed.md says.
 */
function publish(path: string, elements: string[], csp = false): string {
  const body = elements.map((e, i) => `${e}\n<p>Article text after widget ${i + 1}.</p>`).join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A publisher's article</title><script src="${api.base}/v1/embed.js"></script></head>
<body><main><h1>A publisher's article</h1><p>Introduction.</p>\n${body}</main></body></html>`;
  publisherPages.set(path, { html, csp });
  return `${publisherBase}${path}`;
}

/** What the page recorded: widget events, CSP violations, layout shifts (set up before any page script). */
interface Recorded {
  events: Array<{ type: string; kind: string; id: string; detail: Record<string, unknown> }>;
  csp: string[];
  cls: number;
}
const recorded = (p: Page) => p.evaluate(() => (window as unknown as { __pw: Recorded }).__pw);

/** Waits until every widget on `p` shows data (its footer) or a message. */
async function settled(p: Page): Promise<void> {
  const count = await p.locator('predictwire-widget').count();
  for (let i = 0; i < count; i++) {
    const el = p.locator('predictwire-widget').nth(i);
    if ((await el.getAttribute('hide-when-empty')) !== null) continue;
    await el.locator('footer, [role="alert"], .note').first().waitFor({ timeout: 15_000 });
  }
}

/** Opens a fresh page of the context at `width` px. */
async function open(url: string, width = 1280): Promise<Page> {
  const p = await context.newPage();
  await p.setViewportSize({ width, height: 800 });
  await p.goto(url);
  return p;
}

const ALL_KINDS = [
  `<predictwire-widget kind="event" slug="${FED}" display-format="implied_pct"></predictwire-widget>`,
  '<predictwire-widget kind="broad" limit="5"></predictwire-widget>',
  '<predictwire-widget kind="sportsbook" league="NBA"></predictwire-widget>',
  '<predictwire-widget kind="live-market" asset="BTC" horizon="15"></predictwire-widget>',
];

beforeAll(async () => {
  // A US visitor (operators with promos); event and sportsbook data stay put for the whole file so
  // the page and the test's own requests see the same payloads; the live market never goes stale.
  // Click links must point at this process: the browser treats every other origin as external.
  const port = await freePort();
  const env = testEnv(redis.url, {
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DEFAULT_GEO: 'US-NJ',
    REFRESH_EVENTS_SECONDS: '3600',
    REFRESH_SPORTSBOOK_SECONDS: '3600',
    LIVE_STALE_AFTER_SECONDS: '600',
    ...clock.env,
  });
  [worker, api] = await Promise.all([spawnProcess('workers/main.ts', env), spawnProcess('src/main.ts', env)]);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
  // No feed runs here: the strikes are stored as an instance that caught the window start would.
  await seedStrike(redis.client, 'BTC', 15, STRIKE, clock.now());
  await seedStrike(redis.client, 'BTC', 5, STRIKE, clock.now());
  await publishTick(redis.client, 'BTC', STRIKE, clock.now());
  const status = async () =>
    LiveMarketPayload.parse(await getJson('/v1/widgets/live-market?asset=BTC&horizon_minutes=15')).market_status;
  await waitUntil(
    async () => (await status()) === 'open',
    10_000,
    () => api.output(),
  );

  publisher = createServer((req, res) => {
    const entry = publisherPages.get(req.url ?? '');
    if (!entry) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...(entry.csp ? { 'content-security-policy': strictCsp() } : {}),
    });
    res.end(entry.html);
  });
  await new Promise<void>((done) => publisher.listen(0, '127.0.0.1', done));
  publisherBase = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;

  profile = mkdtempSync(join(tmpdir(), 'pw-chromium-'));
  context = await launchChromium(profile, { width: 1200, height: 900 });
  // Before any script of a page: widget events, CSP violations and layout shifts are recorded.
  await context.addInitScript(() => {
    const pw: Recorded = { events: [], csp: [], cls: 0 };
    Object.assign(window, { __pw: pw });
    for (const type of ['load', 'empty', 'error', 'click']) {
      document.addEventListener(`predictwire:${type}`, (e) => {
        const el = e.target as HTMLElement;
        const { payload, ...detail } = (e as CustomEvent<Record<string, unknown>>).detail;
        pw.events.push({
          type,
          kind: el.getAttribute('kind') ?? '',
          id: el.id,
          detail: { ...detail, payload: payload !== undefined },
        });
      });
    }
    document.addEventListener('securitypolicyviolation', (e) => pw.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
        if (!entry.hadRecentInput) pw.cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await context.route(
    () => true,
    async (route) => {
      const url = new URL(route.request().url());
      if (url.origin === publisherBase) return route.continue();
      if (url.origin !== api.base) {
        external.push(url.href);
        return route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><title>operator</title><p>operator page</p>',
        });
      }
      // Playwright routes only the first URL of a redirect chain: the click link is fetched from the
      // real service here and its redirect handed to the browser, whose next request is routed again.
      if (url.pathname !== '/v1/click') return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      clicks.push({ url: url.href, status: response.status(), location: response.headers().location });
      return route.fulfill({ response });
    },
  );
  page = await context.newPage();
  await page.goto(`${api.base}/demo`);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((done) => (publisher ? publisher.close(done) : done(undefined)));
  await Promise.all([api?.stop(), worker?.stop()]);
});

describe('embed.js', () => {
  it('is at most 15 KB gzipped, cacheable with an ETag, JavaScript, CORS-readable', async () => {
    const res = await fetch(`${api.base}/v1/embed.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
    const again = await fetch(`${api.base}/v1/embed.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('the demo page in chromium', () => {
  it('renders all four widgets, light and dark, the variants, each with its snippet and the DB-IP attribution', async () => {
    await settled(page);
    const now = new Date(clock.now());
    for (const w of demoWidgets(now)) {
      for (const theme of ['light', 'dark'] as const) {
        const el = widget(w.attributes.kind!, theme);
        await el.locator('footer').waitFor({ timeout: 15_000 });
        await expect.poll(() => el.locator('h2').textContent()).toBeTruthy();
        const attribution = el.locator('footer a[href="https://db-ip.com"]');
        expect(await attribution.textContent()).toBe('IP geolocation by DB-IP');
        expect(await el.locator('footer b').textContent()).toBe('US-NJ');
        await el.screenshot({ path: join(ARTIFACTS, `${w.attributes.kind}-${theme}.png`) });
      }
    }
    // Each with the two lines to copy: the kinds twice, the variants once, and the configurator's.
    const snippets = await page.locator('pre code').allTextContents();
    expect(snippets).toHaveLength(demoWidgets(now).length * 2 + demoVariants(now).length + 1);
    for (const s of snippets)
      expect(s).toMatch(
        /^<script src="\S+\/v1\/embed\.js"><\/script>\n<predictwire-widget kind="[a-z-]+"[^>]*><\/predictwire-widget>$/,
      );
  });

  it('has a configurator that writes the snippet for the attributes picked, and shows it', async () => {
    await page.selectOption('#cfg-kind', 'sportsbook');
    await page.selectOption('#cfg-league', 'EPL');
    await page.selectOption('#cfg-odds-format', 'fractional');
    await page.selectOption('#cfg-locale', 'de');
    await page.selectOption('#cfg-compact', 'yes');
    expect(await page.locator('#cfg-snippet').textContent()).toBe(
      `<script src="${api.base}/v1/embed.js"></script>\n<predictwire-widget kind="sportsbook" league="EPL" odds-format="fractional" locale="de" compact></predictwire-widget>`,
    );
    // Fields of other kinds are hidden; the preview is the element of the snippet.
    expect(await page.locator('#cfg-slug').isVisible()).toBe(false);
    await page.locator('#cfg-preview predictwire-widget[league="EPL"] footer').waitFor({ timeout: 15_000 });
  });

  it('shows what the payload says: question, probabilities, prices, ranks, ratings and promo codes', async () => {
    const event = EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${FED}&display_format=implied_pct`));
    const el = widget('event');
    expect(await el.locator('h2').textContent()).toBe(event.event_question);
    expect(await el.locator('h3').allTextContents()).toEqual(
      event.outcomes.map((o) => `${o.outcome_name} ${o.aggregated_probability_pct.toFixed(1)}%`),
    );
    const prices = await el.locator('tbody td.num:first-of-type').allTextContents();
    expect(prices).toEqual(event.outcomes.flatMap((o) => bestFirst(o.comparison_pool).map((c) => c.contract_price)));

    const broad = BroadWidgetPayload.parse(await getJson('/v1/widgets/broad?limit=5'));
    const items = widget('broad').locator('ol.ops > li');
    expect(await items.count()).toBe(broad.operators.length);
    for (const [i, op] of broad.operators.entries()) {
      const text = await items.nth(i).textContent();
      expect(text).toContain(`Rank ${op.rank}`);
      expect(text).toContain(op.rating);
      if (op.incentives.promo_code)
        expect(await items.nth(i).locator('code').textContent()).toBe(op.incentives.promo_code);
    }
  });

  it('puts the Best Odds badge on exactly the operators the payload flags, where more than one quotes', async () => {
    const event = EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${FED}&display_format=implied_pct`));
    const sections = widget('event').locator('section.outcome');
    expect(await sections.count()).toBe(event.outcomes.length);
    // The fixture has both cases: outcomes several operators quote, and one only one quotes.
    expect(event.outcomes.some((o) => o.comparison_pool.length > 1)).toBe(true);
    for (const [i, outcome] of event.outcomes.entries()) {
      const flagged =
        outcome.comparison_pool.length > 1
          ? outcome.comparison_pool.filter((c) => c.is_best_odds).map((c) => c.operator_id)
          : [];
      // The flagged come first, in the payload's order.
      const order = await sections
        .nth(i)
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.operator));
      expect(order).toEqual(bestFirst(outcome.comparison_pool).map((c) => c.operator_id));
      const badged = await sections
        .nth(i)
        .locator('tr:has(.badge)')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.operator));
      expect(badged).toEqual(flagged);
    }
    // Sportsbook: the badge marks each line the operator leads that another operator quotes too.
    const book = SportsbookWidgetPayload.parse(await getJson('/v1/widgets/sportsbook?league=NBA'));
    const quoted = (key: string) => book.odds_matrix.operators.filter((op) => key in op.lines).length;
    const rows = widget('sportsbook').locator('tbody tr');
    expect(await rows.count()).toBe(book.odds_matrix.operators.length);
    for (const [i, op] of book.odds_matrix.operators.entries()) {
      expect(await rows.nth(i).locator('th').textContent()).toContain(op.name);
      expect(await rows.nth(i).locator('.badge').count(), op.name).toBe(
        op.best_odds.filter((k) => quoted(k) > 1).length,
      );
    }
  });

  it('shows a tick published to Redis in the live widget within one second, without a reload', async () => {
    const el = widget('live-market');
    await el.locator('tbody tr').first().waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const price = STRIKE + 1_234.56;
    await publishTick(redis.client, 'BTC', price, clock.now());
    await el.locator('.spot').filter({ hasText: '$98,234.56' }).waitFor({ timeout: 1_000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The spot difference moved with it: spot minus each venue's strike.
    const payload = LiveMarketPayload.parse(await getJson('/v1/widgets/live-market?asset=BTC&horizon_minutes=15'));
    const diffs = await el
      .locator('tbody td.num:first-of-type span:not(.sr)')
      .evaluateAll((s) => s.map((x) => x.textContent?.replace('spot vs strike ', '')));
    expect(diffs).toEqual(payload.providers_pool.map((p) => p.live_metrics.spot_difference));
  });

  it('revalidates with If-None-Match and gets a 304 for unchanged data', async () => {
    const el = widget('sportsbook');
    await el.locator('tbody tr').first().waitFor();
    const first = await fetch(`${api.base}/v1/widgets/sportsbook?league=NBA`);
    const etag = first.headers.get('etag');
    const revalidated = page.waitForResponse(
      (r) => r.url().includes('/v1/widgets/sportsbook?league=NBA') && r.status() === 304,
      { timeout: 10_000 },
    );
    // Hidden then visible again, as when a reader comes back to the tab: the widget polls at once.
    await page.evaluate(() => {
      for (const state of ['hidden', 'visible']) {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
        document.dispatchEvent(new Event('visibilitychange'));
      }
    });
    const res = await revalidated;
    // The browser holds the brotli copy, this fetch got gzip: two tags of one body, one stem.
    const stem = (tag: string | null) => tag?.replace(/-(br|gzip)"$/, '"');
    expect(stem(await res.request().headerValue('if-none-match'))).toBe(stem(etag));
    expect(await el.locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('sends a click through /v1/click to the operator page, sponsored, in a new tab, and tells the page', async () => {
    const link = widget('event').locator('a.cta').first();
    expect(await link.getAttribute('rel')).toBe('sponsored noopener');
    expect(await link.getAttribute('target')).toBe('_blank');
    const href = (await link.getAttribute('href'))!;
    expect(new URL(href).pathname).toBe('/v1/click');
    const operatorId = await link.evaluate((a) => (a.closest('tr') as HTMLElement).dataset.operator!);
    const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await popup.waitForURL((url) => url.origin !== api.base && url.protocol.startsWith('http'));
    expect(clicks).toEqual([{ url: href, status: 302, location: popup.url() }]);
    const landed = new URL(popup.url());
    const op = operatorById(operatorId)!;
    expect(
      [...op.webDomains, new URL(op.affiliateUrl).hostname].some(
        (d) => landed.hostname === d || landed.hostname.endsWith(`.${d}`),
      ),
    ).toBe(true);
    expect(external).toContain(popup.url());
    expect(await popup.textContent('p')).toBe('operator page');
    await popup.close();
    const clicked = (await recorded(page)).events.filter((e) => e.type === 'click');
    expect(clicked).toEqual([
      { type: 'click', kind: 'event', id: '', detail: { kind: 'event', operator: op.name, url: href, payload: false } },
    ]);
  });

  it('has no accessibility violation (axe-core), light, dark and variants', async () => {
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("a publisher's page on another origin", () => {
  it('renders every kind under a strict Content-Security-Policy, styled, with no violation', async () => {
    const p = await open(publish('/csp', ALL_KINDS, true));
    await settled(p);
    const { csp } = await recorded(p);
    expect(csp).toEqual([]);
    for (const kind of ['event', 'broad', 'sportsbook', 'live-market']) {
      const el = p.locator(`predictwire-widget[kind="${kind}"]`);
      await el.locator('footer').waitFor();
      // Styled: screen-reader text is clipped to 1 px, the box has its border and radius.
      const style = await el.evaluate((host) => {
        const root = host.shadowRoot!;
        const sr = root.querySelector('.sr')!.getBoundingClientRect();
        return {
          sr: [sr.width, sr.height],
          radius: getComputedStyle(root.querySelector('.w')!).borderTopLeftRadius,
          styleElements: root.querySelectorAll('style').length,
        };
      });
      expect(style, kind).toEqual({ sr: [1, 1], radius: '10px', styleElements: 0 });
      await el.screenshot({ path: join(ARTIFACTS, `${kind}-csp.png`) });
    }
    await p.close();
  });

  it.each([1280, 375])("reserves each widget's space before its data: CLS below 0.05 at %i px", async (width) => {
    const p = await open(publish(`/cls-${width}`, ALL_KINDS, true), width);
    await settled(p);
    // Two frames after the last render, so its shift is reported.
    await p.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const { cls, csp } = await recorded(p);
    expect(csp).toEqual([]);
    expect(cls).toBeLessThan(0.05);
    await p.close();
  });

  it.each([375, 320])(
    "at %i px shows every column of every kind without horizontal scrolling (EPL's 1X2 included)",
    async (width) => {
      const p = await open(
        publish(`/narrow-${width}`, [
          ...ALL_KINDS,
          '<predictwire-widget kind="sportsbook" league="EPL"></predictwire-widget>',
        ]),
        width,
      );
      await settled(p);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      for (const el of await p.locator('predictwire-widget').all()) {
        const outside = await el.evaluate((host) => {
          const box = host.getBoundingClientRect();
          return Array.from(host.shadowRoot!.querySelectorAll('*'))
            .filter((n) => !n.closest('.sr') && !n.closest('thead') && n.getClientRects().length)
            .filter((n) => {
              const r = n.getBoundingClientRect();
              return r.left < box.left - 0.5 || r.right > box.right + 0.5 || n.scrollWidth > n.clientWidth + 1;
            })
            .map((n) => `${n.tagName}.${n.className}`);
        });
        expect(outside, (await el.getAttribute('kind')) ?? '').toEqual([]);
      }
      // Every sportsbook column is there for every operator: spread, total, moneyline (with the draw).
      const epl = SportsbookWidgetPayload.parse(await getJson('/v1/widgets/sportsbook?league=EPL'));
      const cells = p.locator('predictwire-widget[league="EPL"] tbody td');
      expect(await cells.count()).toBe(epl.odds_matrix.operators.length * 3);
      for (const cell of await cells.all()) expect(await cell.isVisible()).toBe(true);
      const draw = epl.odds_matrix.operators.find((op) => op.lines.draw_moneyline)!.lines.draw_moneyline!;
      await p
        .locator('predictwire-widget[league="EPL"] td[data-h="Moneyline"]')
        .filter({ hasText: draw })
        .first()
        .waitFor();
      await p
        .locator('predictwire-widget[league="EPL"]')
        .screenshot({ path: join(ARTIFACTS, `sportsbook-epl-${width}px.png`) });
      await p.close();
    },
  );

  it('reports an impression once a widget is at least half on screen, and only then; once per payload', async () => {
    const [top, below] = await Promise.all(
      [5, 3].map(async (n) => BroadWidgetPayload.parse(await getJson(`/v1/widgets/broad?limit=${n}`)).impression_url!),
    );
    expect(top).not.toBe(below);
    const p = await context.newPage();
    await p.setViewportSize({ width: 1280, height: 800 });
    const beacons: string[] = [];
    p.on('request', (r) => void (r.url().includes('/v1/impression?') && beacons.push(r.url())));
    const topSeen = p.waitForRequest((r) => r.url() === top, { timeout: 15_000 });
    // The second widget starts far below the fold (the page has no CSP, so an inline style is fine).
    await p.goto(
      publish('/viewable', [
        '<predictwire-widget kind="broad" limit="5"></predictwire-widget>',
        '<div style="height: 4000px"></div><predictwire-widget kind="broad" limit="3"></predictwire-widget>',
      ]),
    );
    await topSeen;
    // The widget far below the fold has its payload too, and reported nothing.
    await p.locator('predictwire-widget[limit="3"] footer').waitFor({ state: 'attached' });
    expect(beacons).toEqual([top]);
    const belowSeen = p.waitForResponse((r) => r.url() === below, { timeout: 15_000 });
    await p.locator('predictwire-widget[limit="3"]').scrollIntoViewIfNeeded();
    // Accepted (headless chromium is a bot to the counters, so broad.test.ts shows the counting).
    expect((await belowSeen).status()).toBe(204);
    expect(beacons).toEqual([top, below]);
    await p.close();
  });

  it('has a compact layout for tight slots', async () => {
    const p = await open(
      publish('/compact', [
        '<predictwire-widget kind="sportsbook" league="NBA"></predictwire-widget>',
        '<predictwire-widget kind="sportsbook" league="NBA" compact></predictwire-widget>',
      ]),
    );
    await settled(p);
    const [full, compact] = await p
      .locator('predictwire-widget')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(compact).toBeLessThan(full! * 0.9);
    await p.close();
  });

  it('opens one WebSocket for four widgets, subscribes each topic on it, and never refetches a pushed format', async () => {
    const sockets: string[] = [];
    const topics = new Set<string>();
    const pushed = new Set<string>();
    const eventGets: string[] = [];
    const p = await context.newPage();
    p.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framesent', (f) => topics.add((JSON.parse(String(f.payload)) as { topic: string }).topic));
      ws.on('framereceived', (f) => pushed.add((JSON.parse(String(f.payload)) as { topic?: string }).topic ?? ''));
    });
    p.on('request', (r) => void (r.url().includes('/v1/widgets/event?') && eventGets.push(r.url())));
    await p.goto(
      publish(
        '/one-socket',
        [
          `<predictwire-widget kind="event" slug="${FED}"></predictwire-widget>`,
          `<predictwire-widget kind="event" slug="${FED}" display-format="implied_pct"></predictwire-widget>`,
          '<predictwire-widget kind="live-market" asset="BTC" horizon="15"></predictwire-widget>',
          '<predictwire-widget kind="live-market" asset="BTC" horizon="15" locale="de"></predictwire-widget>',
        ],
        true,
      ),
    );
    await settled(p);
    const expected = [`event:${FED}`, `event:${FED}:implied_pct`, 'live-market:BTC:15'];
    await waitUntil(
      () => expected.every((t) => pushed.has(t)),
      10_000,
      () => JSON.stringify([...pushed]),
    );
    expect(sockets).toHaveLength(1);
    expect([...topics].sort()).toEqual(expected);
    // Each event widget fetched once; the pushes (the subscribe's answer included) were shown as they came.
    expect(eventGets).toHaveLength(2);
    // The implied_pct widget shows the REST payload of its format.
    const event = EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${FED}&display_format=implied_pct`));
    const prices = await p
      .locator('predictwire-widget[display-format="implied_pct"] tbody td.num:first-of-type')
      .allTextContents();
    expect(prices).toEqual(event.outcomes.flatMap((o) => bestFirst(o.comparison_pool).map((c) => c.contract_price)));
    expect((await recorded(p)).csp).toEqual([]);
    await p.close();
  });

  it('subscribes more topics than the server takes messages a second without being cut off', async () => {
    const catalog = (await getJson('/v1/catalog')) as { events: Array<{ slug: string }> };
    const elements = catalog.events.flatMap(({ slug }) =>
      ['cents', 'implied_pct'].map(
        (f) => `<predictwire-widget kind="event" slug="${slug}" display-format="${f}"></predictwire-widget>`,
      ),
    );
    // More than the 20 messages a second a connection may send (WS_MAX_MESSAGES_PER_SECOND).
    expect(elements.length).toBeGreaterThan(20);
    const closes: number[] = [];
    const pushed = new Set<string>();
    const p = await context.newPage();
    p.on('websocket', (ws) => {
      ws.on('framereceived', (f) => pushed.add((JSON.parse(String(f.payload)) as { topic?: string }).topic ?? ''));
      ws.on('close', () => closes.push(Date.now()));
    });
    await p.goto(publish('/many-topics', elements));
    const topics = catalog.events.flatMap(({ slug }) => [`event:${slug}`, `event:${slug}:implied_pct`]);
    await waitUntil(
      () => topics.every((t) => pushed.has(t)),
      20_000,
      () => `${pushed.size} of ${topics.length}`,
    );
    expect(closes).toEqual([]);
    await p.close();
  });

  it('reconnects a dropped socket with backoff and subscribes every topic again', async () => {
    const p = await context.newPage();
    // Every connection of the page goes through the test, which forwards it to the service and can drop it.
    const connections: Array<{ close(): Promise<void> }> = [];
    const subscribes: string[][] = [];
    await p.routeWebSocket(/\/v1\/ws/, (ws) => {
      const topics: string[] = [];
      subscribes.push(topics);
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        topics.push((JSON.parse(String(m)) as { topic: string }).topic);
        server.send(m);
      });
      server.onMessage((m) => ws.send(m));
      connections.push({ close: () => ws.close({ code: 1011, reason: 'test drop' }) });
    });
    await p.goto(
      publish('/reconnect', [
        `<predictwire-widget kind="event" slug="${FED}"></predictwire-widget>`,
        '<predictwire-widget kind="live-market" asset="BTC" horizon="15"></predictwire-widget>',
      ]),
    );
    await settled(p);
    const topics = [`event:${FED}`, 'live-market:BTC:15'];
    await waitUntil(
      () => subscribes[0]?.length === 2,
      10_000,
      () => JSON.stringify(subscribes),
    );
    expect([...subscribes[0]!].sort()).toEqual(topics);
    await connections[0]!.close();
    // The first retry comes after 0.5 to 1 s (1 s, jittered), on one new connection with both topics.
    await waitUntil(
      () => subscribes[1]?.length === 2,
      10_000,
      () => JSON.stringify(subscribes),
    );
    expect(subscribes).toHaveLength(2);
    expect([...subscribes[1]!].sort()).toEqual(topics);
    await p.close();
  });

  it('tells the page what happened: predictwire:load, :empty (and hides), :error with only a visitor message, :click', async () => {
    // An event with nothing lawful in the US, found from the catalogue and the service's own payloads.
    const catalog = (await getJson('/v1/catalog')) as { events: Array<{ slug: string }> };
    let emptySlug = '';
    for (const { slug } of catalog.events) {
      if (isEmpty(EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${slug}`)) as Payload))
        emptySlug = slug;
    }
    expect(emptySlug).not.toBe('');
    const logs: string[] = [];
    const p = await context.newPage();
    p.on('console', (m) => logs.push(m.text()));
    await p.goto(
      publish('/events', [
        `<predictwire-widget id="loaded" kind="event" slug="${FED}"></predictwire-widget>`,
        `<predictwire-widget id="empty" kind="event" slug="${emptySlug}"></predictwire-widget>`,
        `<predictwire-widget id="hidden" kind="event" slug="${emptySlug}" hide-when-empty></predictwire-widget>`,
        '<predictwire-widget id="broken" kind="event" slug="no-such-event"></predictwire-widget>',
      ]),
    );
    await settled(p);
    await waitUntil(
      async () => (await recorded(p)).events.length >= 4,
      10_000,
      () => logs.join('\n'),
    );
    const events = (await recorded(p)).events.map((e) => [e.id, e.type, e.detail.payload, e.detail.status]);
    expect(events.sort()).toEqual([
      ['broken', 'error', false, 404],
      ['empty', 'empty', true, undefined],
      ['hidden', 'empty', true, undefined],
      ['loaded', 'load', true, undefined],
    ]);
    // Empty: one line, or nothing at all with hide-when-empty.
    expect(await p.locator('#empty .note').textContent()).toBe('No operator can be shown in your region.');
    expect(
      await p
        .locator('#hidden')
        .evaluate((el) => [el.getBoundingClientRect().height, el.shadowRoot!.querySelector('.w')]),
    ).toEqual([0, null]);
    // The visitor reads no developer text; the developer finds the problem's detail in the console.
    expect(await p.locator('#broken [role="alert"]').textContent()).toBe('This widget is unavailable right now.');
    expect(logs.some((l) => l.includes('no-such-event') && l.includes('predictwire-widget'))).toBe(true);
    await p.close();
  });

  it("writes sportsbook odds in each format, and numbers, money and dates in the widget's locale", async () => {
    const formats = ['american', 'decimal', 'fractional'] as const;
    const p = await context.newPage();
    await p.setViewportSize({ width: 1280, height: 800 });
    // Prices and volumes move with every refresh: compare each widget with the last answer it got.
    const answers: Array<{ url: string; body: Promise<unknown> }> = [];
    p.on('response', (r) => {
      if (r.url().includes('/v1/widgets/') && r.status() === 200) answers.push({ url: r.url(), body: r.json() });
    });
    const lastAnswer = (part: string) => answers.findLast((a) => a.url.includes(part))?.body;
    await p.goto(
      publish('/formats', [
        ...formats.map(
          (f) => `<predictwire-widget kind="sportsbook" league="EPL" odds-format="${f}"></predictwire-widget>`,
        ),
        '<predictwire-widget kind="broad" limit="3" locale="de" currency="EUR"></predictwire-widget>',
      ]),
    );
    await settled(p);
    for (const f of formats) {
      const shown = await p
        .locator(`predictwire-widget[odds-format="${f}"] tbody tr`)
        .evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[2]!.textContent ?? ''));
      const book = SportsbookWidgetPayload.parse(await lastAnswer(`odds_format=${f}`));
      expect(book.odds_format).toBe(f);
      const home = book.odds_matrix.operators.map((op) => op.lines.home_moneyline ?? '');
      // en-US reads what the API wrote.
      for (const [i, odds] of home.entries()) expect(shown[i], f).toContain(odds);
    }
    // The visitor's country picks the format when the page does not: fractional in GB.
    expect(
      SportsbookWidgetPayload.parse(await getJson('/v1/widgets/sportsbook?league=EPL&fallback_geo=GB')).odds_format,
    ).toBe('fractional');
    // German: money through Intl ("579 Mio. €"), the figures the API wrote.
    const de = p.locator('predictwire-widget[locale="de"]');
    const shownVolume = await de.locator('.summary dd').first().textContent();
    const broad = BroadWidgetPayload.parse(await lastAnswer('/v1/widgets/broad'));
    expect(broad.trending_summary.global_24h_volume).toMatch(/^€/);
    const volume = localNumber(broad.trending_summary.global_24h_volume, 'de');
    expect(shownVolume).toBe(volume);
    // "€579.0M" reads "579 Mio. €": the API's figure with a decimal comma, the German abbreviation, the sign after.
    const figure = Number(broad.trending_summary.global_24h_volume.replace(/[^\d.]/g, ''));
    expect(volume.replace(/\s/gu, ' ')).toMatch(
      new RegExp(`^${String(figure).replace('.', ',')} (Mio\\.|Mrd\\.|Tsd\\.) €$`),
    );
    await p.close();
  });

  it('follows the reader\'s colour scheme with theme="auto"', async () => {
    const p = await open(
      publish('/auto', [
        '<predictwire-widget kind="live-market" asset="BTC" horizon="15" theme="auto"></predictwire-widget>',
      ]),
    );
    await settled(p);
    const background = () =>
      p
        .locator('predictwire-widget')
        .evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.w')!).backgroundColor);
    await p.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(17, 24, 39)');
    await p.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(255, 255, 255)');
    await p.close();
  });

  it('picks a live-market horizon with a lawful venue when the page names none, and says which', async () => {
    const payloads = await Promise.all(
      [5, 15].map(async (h) =>
        LiveMarketPayload.parse(await getJson(`/v1/widgets/live-market?asset=BTC&horizon_minutes=${h}`)),
      ),
    );
    // The premise: what issue 26 saw, a 5-minute market with no venue a US visitor may be shown.
    expect(isEmpty(payloads[0] as Payload)).toBe(true);
    const lawful = payloads.find((pl) => !isEmpty(pl as Payload)) ?? payloads[1]!;
    const p = await open(
      publish('/horizon', ['<predictwire-widget kind="live-market" asset="BTC"></predictwire-widget>']),
    );
    await settled(p);
    const minutes = Number.parseInt(lawful.expiration_horizon, 10);
    await p
      .locator('predictwire-widget')
      .locator('.live')
      .filter({ hasText: `${minutes}-minute window` })
      .waitFor({ timeout: 10_000 });
    expect(await p.locator('predictwire-widget tbody tr').count()).toBe(lawful.providers_pool.length);
    await p.close();
  });

  it("renders the service's disclosures, promotion terms and sportsbook links on every widget (a New Jersey visitor)", async () => {
    const p = await context.newPage();
    await p.goto(
      publish('/lawful', [
        '<predictwire-widget kind="broad" limit="3"></predictwire-widget>',
        '<predictwire-widget kind="sportsbook" league="NBA"></predictwire-widget>',
      ]),
    );
    await settled(p);
    const broad = BroadWidgetPayload.parse(await getJson('/v1/widgets/broad?limit=3'));
    const book = SportsbookWidgetPayload.parse(await getJson('/v1/widgets/sportsbook?league=NBA'));
    const d = broad.disclosures!;
    expect(d).toMatchObject({ min_age: 21, responsible_gambling: { phone: '1-800-GAMBLER' } });
    for (const el of await p.locator('predictwire-widget').all()) {
      expect(await el.locator('.ad').textContent()).toBe(`${d.ad_label} ${d.min_age}+`);
      expect(
        await el.locator('.rg a').evaluateAll((links) => links.map((a) => [a.getAttribute('href'), a.textContent])),
      ).toEqual([
        [d.responsible_gambling.url, new URL(d.responsible_gambling.url).host],
        // the vanity number dialled as on a keypad
        ['tel:18004262537', '1-800-GAMBLER'],
      ]);
      expect(await el.locator('footer b').textContent()).toBe('US-NJ');
    }
    const terms = p.locator('predictwire-widget[kind="broad"] .terms');
    const withTerms = broad.operators.filter((o) => o.incentives.promo_terms !== '');
    expect(withTerms.length).toBeGreaterThan(0);
    expect(await terms.allTextContents()).toEqual(withTerms.map((o) => `${o.incentives.promo_terms} T&Cs`));
    const names = await p
      .locator('predictwire-widget[kind="sportsbook"] tbody th a.op')
      .evaluateAll((links) => links.map((a) => [a.getAttribute('rel'), a.getAttribute('target'), a.dataset.op]));
    expect(names).toEqual(book.odds_matrix.operators.map((op) => ['sponsored noopener', '_blank', op.name]));
    expect(await axeViolations(p)).toEqual([]);
    await p.close();
  });

  it('collapses an event to its first operators per outcome, with an expander for the rest', async () => {
    const p = await context.newPage();
    // More operators than the simulator lists: each outcome's pool twice over, on polling only.
    await p.routeWebSocket(/\/v1\/ws/, (ws) => ws.close());
    await p.route(
      (url) => url.href.startsWith(`${api.base}/v1/widgets/event?`),
      async (route) => {
        const body = EventWidgetPayload.parse(await (await route.fetch()).json());
        for (const o of body.outcomes)
          o.comparison_pool = [
            ...o.comparison_pool,
            ...o.comparison_pool.map((c) => ({ ...c, operator_id: `${c.operator_id}-2`, is_best_odds: false })),
          ];
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
      },
    );
    await p.goto(publish('/collapse', [`<predictwire-widget kind="event" slug="${CPI}"></predictwire-widget>`]));
    await settled(p);
    const event = EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${CPI}`));
    const outcome = p.locator('predictwire-widget section.outcome').first();
    const pool = event.outcomes[0]!.comparison_pool.length * 2;
    const visibleRows = () =>
      outcome.locator('tbody tr').evaluateAll((rows) => rows.filter((r) => r.getClientRects().length).length);
    expect(await visibleRows()).toBe(2);
    const toggle = outcome.locator('button.toggle');
    expect([await toggle.textContent(), await toggle.getAttribute('aria-expanded')]).toEqual([
      `Show ${pool - 2} more`,
      'false',
    ]);
    await toggle.click();
    expect(await visibleRows()).toBe(pool);
    expect(await outcome.locator('button.toggle').getAttribute('aria-expanded')).toBe('true');
    // Focus stays on the expander across the re-render, so a keyboard reader can close it again.
    expect(
      await p
        .locator('predictwire-widget')
        .evaluate((el) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.outcome),
    ).toBe('0');
    await p.keyboard.press('Enter');
    expect(await visibleRows()).toBe(2);
    await p.close();
  });

  it('has no accessibility violation on a page with two widgets of each kind', async () => {
    const p = await open(
      publish('/two-of-each', [
        ...ALL_KINDS,
        `<predictwire-widget kind="event" slug="${CPI}" theme="dark"></predictwire-widget>`,
        '<predictwire-widget kind="broad" limit="3" locale="de" currency="EUR"></predictwire-widget>',
        '<predictwire-widget kind="sportsbook" league="EPL" odds-format="fractional"></predictwire-widget>',
        '<predictwire-widget kind="live-market" asset="BTC" horizon="15" compact theme="dark"></predictwire-widget>',
      ]),
    );
    await settled(p);
    expect(await axeViolations(p)).toEqual([]);
    await p.close();
  });

  it('draws a sparkline per outcome from the event history and one for the live window from its spot path, under a strict CSP', async () => {
    // The worker refreshes hourly here: two earlier refreshes of the current snapshot, recorded as the worker records them.
    const snap = (await readSnapshot(redis.client, 'events', 'all'))!;
    for (const minutesAgo of [20, 10])
      await recordHistory(redis.client, snap.data, new Date(clock.now() - minutesAgo * 60_000));
    const history = EventHistoryPayload.parse(await getJson(`/v1/widgets/event/history?slug=${FED}`));
    const p = await open(publish('/sparklines', [ALL_KINDS[0]!, ALL_KINDS[3]!], true));
    await settled(p);
    const points = (el: ReturnType<Page['locator']>) =>
      el.evaluate((host) =>
        Array.from(host.shadowRoot!.querySelectorAll('svg.spark')).map(
          (svg) => svg.querySelector('polyline')?.getAttribute('points')?.split(' ').length ?? 0,
        ),
      );
    const event = p.locator('predictwire-widget[kind="event"]');
    const payload = EventWidgetPayload.parse(await getJson(`/v1/widgets/event?slug=${FED}&display_format=implied_pct`));
    const expected = payload.outcomes.map(
      (o) =>
        history.outcomes.find((h) => h.outcome_name === o.outcome_name)!.probability_pct.filter((v) => v !== null)
          .length,
    );
    expect(Math.min(...expected)).toBeGreaterThanOrEqual(3);
    await expect.poll(() => points(event), { timeout: 10_000 }).toEqual(expected);
    // The live window: as many points as the payload's spot path (no tick is published meanwhile).
    const live = p.locator('predictwire-widget[kind="live-market"]');
    const path = LiveMarketPayload.parse(
      await getJson('/v1/widgets/live-market?asset=BTC&horizon_minutes=15'),
    ).spot_path;
    expect(path.length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => points(live), { timeout: 10_000 }).toEqual([path.length]);
    // Drawn, not just present: each box has a visible height, and the page's policy blocked nothing.
    for (const el of [event, live]) {
      const heights = await el.evaluate((host) =>
        Array.from(host.shadowRoot!.querySelectorAll('svg.spark')).map((svg) => svg.getBoundingClientRect().height),
      );
      expect(heights.every((h) => h === 24)).toBe(true);
    }
    expect((await recorded(p)).csp).toEqual([]);
    await live.screenshot({ path: join(ARTIFACTS, 'live-market-sparkline.png') });
    await event.screenshot({ path: join(ARTIFACTS, 'event-sparklines.png') });
    await p.close();
  });
});
