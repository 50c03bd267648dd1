/**
 * <predictwire-widget> in a real browser: Debian's chromium driven by playwright-core (nothing
 * downloads a browser) against the real API and worker on a real Redis. The demo page is loaded as
 * a person would open it; expected values come from the service's own payloads and the operator
 * catalogue. Requests to any other host are answered by the test (no network). Screenshots of every
 * widget go to test-results/embed/ (git-ignored) for a person to look at.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorById } from '../../src/catalog/operators.js';
import { freePort } from '../../src/dev/private-redis.js';
import { MAX_GZIPPED_BYTES } from '../../src/embed/bundle.js';
import { DEMO_WIDGETS } from '../../src/embed/demo-page.js';
import { EventWidgetPayload, LiveMarketPayload, SportsbookWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { root, waitUntil } from '../support/processes.js';
import { publishTick, seedStrike } from '../support/live.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(root, 'test-results/embed');
const STRIKE = 97_000;

const redis = useRedis();
let api: ServiceProcess;
let worker: ServiceProcess;
let context: BrowserContext;
let page: Page;
let profile: string;
/** Every URL on another host the browser tried to reach (answered by the test). */
const external: string[] = [];
/** Every /v1/click request the browser made, with the service's answer. */
const clicks: Array<{ url: string; status: number; location: string | undefined }> = [];

/** The demo page's element for a kind and theme. */
const widget = (kind: string, theme: 'light' | 'dark' = 'light') =>
  page.locator(`predictwire-widget[kind="${kind}"]${theme === 'dark' ? '[theme="dark"]' : ':not([theme])'}`);

const getJson = async (path: string) => {
  const res = await fetch(`${api.base}${path}`);
  expect(res.status, path).toBe(200);
  return res.json();
};

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
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
  });
  [worker, api] = await Promise.all([spawnProcess('workers/main.ts', env), spawnProcess('src/main.ts', env)]);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
  // No feed runs here: the strike is stored as an instance that caught the window start would.
  await seedStrike(redis.client, 'BTC', 15, STRIKE);
  await publishTick(redis.client, 'BTC', STRIKE);
  const status = async () => LiveMarketPayload.parse(await getJson('/v1/widgets/live-market?asset=BTC&horizon_minutes=15')).market_status;
  await waitUntil(async () => (await status()) === 'open', 10_000, () => api.output());

  profile = mkdtempSync(join(tmpdir(), 'pw-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
  });
  await context.route(
    () => true,
    async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== api.base) {
        external.push(url.href);
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>operator</title><p>operator page</p>' });
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
  it('renders all four widgets, light and dark, each with its snippet and the DB-IP attribution', async () => {
    for (const w of DEMO_WIDGETS) {
      for (const theme of ['light', 'dark'] as const) {
        const el = widget(w.attributes.kind!, theme);
        await el.locator('footer').waitFor({ timeout: 15_000 });
        await expect.poll(() => el.locator('h2').textContent()).toBeTruthy();
        const attribution = el.locator('footer a[href="https://db-ip.com"]');
        expect(await attribution.textContent()).toBe('IP geolocation by DB-IP');
        expect(await el.locator('footer b').textContent()).toBe('US');
        await el.screenshot({ path: join(ARTIFACTS, `${w.attributes.kind}-${theme}.png`) });
      }
    }
    // Each with the two lines to copy.
    const snippets = await page.locator('pre code').allTextContents();
    expect(snippets).toHaveLength(DEMO_WIDGETS.length * 2);
    for (const s of snippets) expect(s).toMatch(/^<script src="\S+\/v1\/embed\.js" async><\/script>\n<predictwire-widget kind="[a-z-]+"[^>]*><\/predictwire-widget>$/);
  });

  it('shows what the payload says: question, probabilities, prices, ranks, ratings and promo codes', async () => {
    const event = EventWidgetPayload.parse(await getJson('/v1/widgets/event?slug=fed-december-2026&display_format=implied_pct'));
    const el = widget('event');
    expect(await el.locator('h2').textContent()).toBe(event.event_question);
    expect(await el.locator('h3').allTextContents()).toEqual(event.outcomes.map((o) => `${o.outcome_name} ${o.aggregated_probability_pct.toFixed(1)}%`));
    const prices = await el.locator('tbody td.num:first-of-type').allTextContents();
    expect(prices).toEqual(event.outcomes.flatMap((o) => o.comparison_pool.map((c) => c.contract_price)));

    const broad = (await getJson('/v1/widgets/broad?limit=5')) as { operators: Array<{ rank: number; rating: string; incentives: { promo_code: string } }> };
    const items = widget('broad').locator('ol.ops > li');
    expect(await items.count()).toBe(broad.operators.length);
    for (const [i, op] of broad.operators.entries()) {
      const text = await items.nth(i).textContent();
      expect(text).toContain(`Rank ${op.rank}`);
      expect(text).toContain(op.rating);
      if (op.incentives.promo_code) expect(await items.nth(i).locator('code').textContent()).toBe(op.incentives.promo_code);
    }
  });

  it('puts the Best Odds badge on exactly the operators the payload flags', async () => {
    const event = EventWidgetPayload.parse(await getJson('/v1/widgets/event?slug=fed-december-2026&display_format=implied_pct'));
    const sections = widget('event').locator('section.outcome');
    expect(await sections.count()).toBe(event.outcomes.length);
    for (const [i, outcome] of event.outcomes.entries()) {
      const flagged = outcome.comparison_pool.filter((c) => c.is_best_odds).map((c) => c.operator_id);
      expect(flagged.length).toBeGreaterThan(0);
      const badged = await sections.nth(i).locator('tr:has(.badge)').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.operator));
      expect(badged).toEqual(flagged);
    }
    // Sportsbook: the badge marks each line the operator leads, no other.
    const book = SportsbookWidgetPayload.parse(await getJson('/v1/widgets/sportsbook?league=NBA'));
    const rows = widget('sportsbook').locator('tbody tr');
    expect(await rows.count()).toBe(book.odds_matrix.operators.length);
    for (const [i, op] of book.odds_matrix.operators.entries()) {
      expect(await rows.nth(i).locator('th').textContent()).toContain(op.name);
      expect(await rows.nth(i).locator('.badge').count(), op.name).toBe(op.best_odds.length);
    }
  });

  it('shows a tick published to Redis in the live widget within one second, without a reload', async () => {
    const el = widget('live-market');
    // A tick at the strike first: should the window have rolled since the start, it opens the next one.
    await publishTick(redis.client, 'BTC', STRIKE);
    await el.locator('tbody tr').first().waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const price = STRIKE + 1_234.56;
    await publishTick(redis.client, 'BTC', price);
    await el.locator('.spot').filter({ hasText: '$98,234.56' }).waitFor({ timeout: 1_000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The spot difference moved with it: spot minus each venue's strike.
    const payload = LiveMarketPayload.parse(await getJson('/v1/widgets/live-market?asset=BTC&horizon_minutes=15'));
    const diffs = await el.locator('tbody td.num:first-of-type span:not(.sr)').evaluateAll((s) => s.map((x) => x.textContent?.replace('spot vs strike ', '')));
    expect(diffs).toEqual(payload.providers_pool.map((p) => p.live_metrics.spot_difference));
  });

  it('revalidates with If-None-Match and gets a 304 for unchanged data', async () => {
    const el = widget('sportsbook');
    await el.locator('tbody tr').first().waitFor();
    const first = await fetch(`${api.base}/v1/widgets/sportsbook?league=NBA`);
    const etag = first.headers.get('etag');
    const revalidated = page.waitForResponse((r) => r.url().includes('/v1/widgets/sportsbook') && r.status() === 304, { timeout: 10_000 });
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

  it('sends a click through /v1/click to the operator page, sponsored, in a new tab', async () => {
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
    expect([...op.webDomains, new URL(op.affiliateUrl).hostname].some((d) => landed.hostname === d || landed.hostname.endsWith(`.${d}`))).toBe(true);
    expect(external).toContain(popup.url());
    expect(await popup.textContent('p')).toBe('operator page');
    await popup.close();
  });

  it('has no serious or critical accessibility violation (axe-core), light and dark', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.addScriptTag({ content: axe });
    const violations = await page.evaluate(async () => {
      const w = window as unknown as { axe: { run(ctx: Document): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } };
      const result = await w.axe.run(document);
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, where: v.nodes.slice(0, 3).map((n) => n.target) }));
    });
    expect(violations).toEqual([]);
  });

  it('is readable at 320 px wide: nothing overflows the page', async () => {
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await widget('live-market').screenshot({ path: join(ARTIFACTS, 'live-market-320px.png') });
    await widget('event', 'dark').screenshot({ path: join(ARTIFACTS, 'event-dark-320px.png') });
  });

  it('says clearly when it cannot show a widget (an unknown slug is a 404 from the service)', async () => {
    await page.evaluate(() => {
      const el = document.createElement('predictwire-widget');
      el.setAttribute('kind', 'event');
      el.setAttribute('slug', 'no-such-event');
      el.id = 'broken';
      document.body.append(el);
    });
    const alert = page.locator('#broken [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^This widget is unavailable right now\. \S/);
  });
});
