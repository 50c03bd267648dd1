/**
 * GET /compliance in a real browser (Debian's chromium under playwright-core): the page a compliance
 * officer reads is the matrix the JSON gives, with a suspension in force; it loads nothing from any
 * host, breaks its strict Content-Security-Policy nowhere, has no accessibility violation (axe-core)
 * in light and dark, and reads on a phone without sideways scrolling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompliancePayload } from '../../src/catalog/compliance/matrix.js';
import { suspend } from '../../src/catalog/compliance/store.js';
import { axeViolations, launchChromium, refuseOtherHosts } from '../support/browser.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let api: ServiceProcess;
let context: BrowserContext;
let profile: string;
/** Every URL on another host the browser tried to reach (refused). */
const external: string[] = [];

beforeAll(async () => {
  await suspend(redis.client, {
    operator: 'draftkings',
    jurisdiction: 'US-MI',
    surface: null,
    reason: 'Court order <b>2026-CV-9</b>',
    by: 'browser-officer',
    at: '2026-11-27T09:00:00.000Z',
  });
  api = await spawnProcess('src/main.ts', testEnv(redis.url));
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api, 60_000);
  profile = mkdtempSync(join(tmpdir(), 'pw-chromium-'));
  context = await launchChromium(profile, { width: 1280, height: 900 });
  await context.addInitScript(() => {
    const csp: string[] = [];
    Object.assign(window, { __csp: csp });
    document.addEventListener('securitypolicyviolation', (e) => csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await refuseOtherHosts(context, api.base, external);
}, 90_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.stop();
});

/** Every axe-core violation of `p`, every <details> opened so all of the page is checked. */
async function violations(p: Page) {
  await p.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.setAttribute('open', '');
    }),
  );
  return axeViolations(p);
}

async function open(width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
  const p = await context.newPage();
  await p.setViewportSize({ width, height: 900 });
  await p.emulateMedia({ colorScheme });
  const res = await p.goto(`${api.base}/compliance`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(res?.headers()['content-security-policy']).toMatch(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'/,
  );
  return p;
}

describe('GET /compliance', () => {
  it('shows the matrix the JSON gives: the suspension, each jurisdiction, each row with its sources', async () => {
    const matrix = (await (await fetch(`${api.base}/v1/compliance`)).json()) as CompliancePayload;
    const p = await open(1280, 'light');
    const text = await p.locator('main').innerText();
    // The suspension, its reason written as text, not markup.
    expect(text).toContain(
      'DraftKings in US-MI, every surface: since 2026-11-27T09:00:00.000Z, by browser-officer: Court order <b>2026-CV-9</b>',
    );
    expect(await p.locator('main b').count()).toBe(0);
    expect(await p.locator('details').count()).toBe(matrix.jurisdictions.length);
    const michigan = p.locator('details#j-US-MI');
    await michigan.locator('summary').click();
    expect(await michigan.innerText()).toMatch(
      /DraftKings: hidden for politics, economics, crypto, sports, culture \(suspended: \S+: draftkings\|US-MI\|\*\)/,
    );
    // Every row, with each of its sources as a link and its review date: read in one call, since a
    // hundred rows of three round trips to the browser each took most of this test's time.
    const articles = await p.locator('article[id^="row-"]').evaluateAll((as) =>
      as.map((a) => ({
        id: a.id,
        heading: a.querySelector<HTMLElement>('h4')?.innerText,
        sources: [...a.querySelectorAll('a')].map((l) => l.getAttribute('href')),
        text: (a as HTMLElement).innerText,
      })),
    );
    expect(articles.map((a) => a.id)).toEqual(matrix.rows.map((row) => `row-${row.id}`));
    for (const [i, row] of matrix.rows.entries()) {
      expect(articles[i]?.heading).toBe(row.id);
      expect(articles[i]?.sources).toEqual(row.sources);
      expect(articles[i]?.text).toContain(row.reviewed_on);
    }
    // A row's link in a jurisdiction leads to the row.
    const first = michigan.locator('a[href^="#row-"]').first();
    const target = (await first.getAttribute('href'))!;
    await first.click();
    expect(await p.evaluate(() => location.hash)).toBe(target);
    expect(await p.locator('script').count()).toBe(0);
    expect(await p.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    expect(external).toEqual([]);
    await p.close();
  }, 60_000);

  it.each(['light', 'dark'] as const)(
    'has no accessibility violation (axe-core), %s',
    async (scheme) => {
      const p = await open(1280, scheme);
      expect(await violations(p)).toEqual([]);
      await p.close();
    },
    60_000,
  );

  it('reads on a phone: one column, nothing wider than the screen, dark too', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const p = await open(375, scheme);
      await p.evaluate(() =>
        document.querySelectorAll('details').forEach((d) => {
          d.setAttribute('open', '');
        }),
      );
      const widths = await p.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: document.documentElement.clientWidth,
      }));
      expect(widths.page, scheme).toBeLessThanOrEqual(widths.screen);
      const colors = await p.evaluate(() => ({
        bg: getComputedStyle(document.body).backgroundColor,
        fg: getComputedStyle(document.body).color,
      }));
      expect(colors, scheme).toEqual(
        scheme === 'dark'
          ? { bg: 'rgb(3, 7, 18)', fg: 'rgb(243, 244, 246)' }
          : { bg: 'rgb(249, 250, 251)', fg: 'rgb(17, 24, 39)' },
      );
      expect(await violations(p)).toEqual([]);
      await p.close();
    }
  }, 60_000);
});
