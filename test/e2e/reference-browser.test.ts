/**
 * GET /docs in a real browser (Debian's chromium driven by playwright-core, as the embed's browser
 * test): the page and its renderer come from the service itself, nothing is asked of any other
 * host, and the document renders as pages with its operations and the descriptions written beside
 * the zod schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, refuseOtherHosts } from '../support/browser.js';
import { openApiDocument } from '../support/contract.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let api: ServiceProcess;
let context: BrowserContext;
let profile: string;
/** Every URL on another host the browser tried to reach (refused). */
const external: string[] = [];

beforeAll(async () => {
  api = await spawnProcess('src/main.ts', testEnv(redis.url));
  await waitFor(`${api.base}/healthz`, (s) => s === 200, api, 60_000);
  profile = mkdtempSync(join(tmpdir(), 'pw-chromium-'));
  context = await launchChromium(profile, { width: 1280, height: 900 });
  await refuseOtherHosts(context, api.base, external);
}, 90_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.stop();
});

describe('GET /docs', () => {
  it("renders the OpenAPI document with the service's own copy of the renderer, asking no other host", async () => {
    const page = await context.newPage();
    const scripts: Array<{ url: string; status: number }> = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push({ url: res.url(), status: res.status() });
    });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const res = await page.goto(`${api.base}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
    // Every operation's summary is in the rendered menu.
    const doc = openApiDocument();
    const report = doc.paths['/advertiser/v1/reports'].get as { summary: string };
    await page
      .locator('h2', { hasText: report.summary })
      .waitFor({ timeout: 30_000 })
      .catch(async (err: Error) => {
        throw new Error(
          `${err.message}\nexternal: ${external.join(' ')}\nerrors: ${errors.join(' | ')}\nscripts: ${JSON.stringify(scripts)}\n${(await page.content()).slice(0, 3000)}`,
        );
      });
    expect(res?.headers()['content-security-policy']).toMatch(/^default-src 'self'/);
    const text = await page.locator('body').innerText();
    for (const item of Object.values(doc.paths) as Array<{ get: { summary: string } }>)
      expect(text).toContain(item.get.summary);
    // Descriptions written beside the zod schemas are what people read.
    const granularity = (
      doc.paths['/advertiser/v1/reports'].get.parameters as Array<{ name: string; description: string }>
    ).find((p) => p.name === 'granularity')!;
    expect(text).toContain(granularity.description);
    expect(text).toContain(doc.components.schemas.ReportPayload.properties.rows.description);
    expect(scripts).toEqual([{ url: `${api.base}/docs/redoc.standalone.js`, status: 200 }]);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves the renderer compressed, with an ETag, and the page cacheable', async () => {
    const bundle = await fetch(`${api.base}/docs/redoc.standalone.js`, { headers: { 'accept-encoding': 'br' } });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-encoding')).toBe('br');
    const etag = bundle.headers.get('etag')!;
    expect(
      (
        await fetch(`${api.base}/docs/redoc.standalone.js`, {
          headers: { 'accept-encoding': 'br', 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);
    expect((await fetch(`${api.base}/docs`)).headers.get('cache-control')).toMatch(/^public/);
  });
});
