/** Debian's chromium under playwright-core (nothing downloads a browser), as the browser tests drive it. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless chromium with its own `profile` folder, reaching for nothing on its own; `locale` is the browser's language (navigator.language). */
export async function launchChromium(
  profile: string,
  viewport: { width: number; height: number },
  locale?: string,
): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM))
    throw new Error(`chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
    ...(locale && { locale }),
  });
}

/**
 * Lets `context` reach `origin` (and blob: and data: URLs) only: every other request is refused and
 * its URL added to `external`, so a test can say the page asked no other host.
 */
export async function refuseOtherHosts(context: BrowserContext, origin: string, external: string[]): Promise<void> {
  await context.route(
    () => true,
    async (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin || url.protocol === 'blob:' || url.protocol === 'data:') return route.continue();
      external.push(url.href);
      return route.abort();
    },
  );
}

/**
 * Every axe-core violation of `p` (any impact). axe is evaluated through the browser's devtools,
 * which no page policy governs (a page may allow no script at all); a run that checked nothing is
 * reported as a violation, since it would pass any page.
 */
export async function axeViolations(p: Page): Promise<Array<{ id: string; impact: string; where: unknown[] }>> {
  await p.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return p.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          options: { resultTypes: string[] },
        ): Promise<{
          passes: unknown[];
          violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }>;
        }>;
      };
    };
    // Details for violations only: the passes are counted (one node each), not listed node by node,
    // which on a page of a thousand table cells is most of axe's time.
    const result = await w.axe.run(document, { resultTypes: ['violations'] });
    if (result.passes.length === 0) return [{ id: 'axe checked nothing', impact: '', where: [] }];
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      where: v.nodes.slice(0, 3).map((n) => n.target),
    }));
  });
}
