/**
 * The fixed pages of an API process: the widget script and its demo page, the advertiser console,
 * the API reference. Prepared once at start and served from memory.
 */
import { CONSOLE, loadBundle, loadEmbedScript } from '../../embed/bundle.js';
import { consolePage } from '../../embed/console-page.js';
import { demoPage } from '../../embed/demo-page.js';
import type { Config } from '../../config.js';
import type { Pages } from '../router.js';
import { staticRoute } from './embed.js';
import { referenceRoutes } from './reference.js';

/** Path → handler of every fixed page; `startedAt` is their Last-Modified. */
export async function fixedPages(config: Config, startedAt: Date): Promise<Pages> {
  // Both bundles at once: from the source tree each is an esbuild run.
  const [embedScript, consoleScript] = await Promise.all([loadEmbedScript(), loadBundle(CONSOLE)]);
  const advertiserConsole = consolePage(consoleScript.toString('utf8'));
  return {
    '/v1/embed.js': staticRoute(embedScript, 'application/javascript; charset=utf-8', startedAt),
    // Off unless asked for in production (DEMO_ENABLED): then /demo is an unknown path (404).
    '/demo': config.demoEnabled
      ? staticRoute(Buffer.from(demoPage(config.publicBaseUrl)), 'text/html; charset=utf-8', startedAt)
      : undefined,
    '/advertiser/console': staticRoute(Buffer.from(advertiserConsole.html), 'text/html; charset=utf-8', startedAt, {
      headers: {
        'content-security-policy': advertiserConsole.csp,
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    }),
    // The API reference (the OpenAPI document as pages) and its renderer.
    ...(await referenceRoutes(startedAt)),
  };
}
