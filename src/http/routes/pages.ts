/**
 * The fixed pages of an API process: the widget script and its demo page, the advertiser console,
 * the API reference. Prepared once at start and served from memory.
 */
import { CONSOLE, loadBundle, loadEmbedScript } from '../../embed/bundle.js';
import { consolePage } from '../../embed/console-page.js';
import { demoPage } from '../../embed/demo-page.js';
import type { Config } from '../../config.js';
import { operation, type Op } from '../openapi-parts.js';
import type { ComponentName } from '../openapi-schemas.js';
import { CACHED, route } from '../route.js';
import { type PageHandler, staticRoute } from './embed.js';
import { referenceRoutes } from './reference.js';

type PagePath = '/v1/embed.js' | '/docs' | '/docs/redoc.standalone.js' | '/demo' | '/advertiser/console';

/** The fixed pages, prepared at start; undefined: not served (a 404). */
export type Pages = { readonly [P in PagePath]: PageHandler | undefined };

/** Path → handler of every fixed page; `startedAt` is their Last-Modified. */
export async function fixedPages(config: Config, startedAt: Date): Promise<Pages> {
  // Both bundles at once: from the source tree each is an esbuild run.
  const [embedScript, consoleScript] = await Promise.all([loadEmbedScript(), loadBundle(CONSOLE)]);
  const advertiserConsole = consolePage(consoleScript.toString('utf8'));
  return {
    '/v1/embed.js': staticRoute(embedScript, 'application/javascript; charset=utf-8', startedAt),
    // Off unless asked for in production (DEMO_ENABLED): then /demo is an unknown path (404). Its
    // example events are those the simulator lists at start: a process running past one's close
    // shows that widget's error (an event no longer listed) until it restarts (a development page).
    '/demo': config.demoEnabled
      ? staticRoute(Buffer.from(demoPage(config.publicBaseUrl, startedAt)), 'text/html; charset=utf-8', startedAt)
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

/** A fixed page's route: served from `Pages`, described as a document of `contentType` with `body`'s schema. */
const page = <P extends PagePath>(
  path: P,
  id: string,
  doc: Pick<Op, 'tag' | 'summary' | 'description' | 'contentType' | 'problems'> & { payload: ComponentName },
) =>
  route({
    path,
    reads: CACHED,
    openapi: () => operation(id, { ...doc, cached: true }),
    handler: (pages: Pages) => pages[path],
  });

export const embedScript = page('/v1/embed.js', 'getEmbedScript', {
  tag: 'discovery',
  summary: 'The <predictwire-widget> custom element (docs/embed.md)',
  description: 'The script a page loads once to embed any number of widgets; under 15 KB gzipped.',
  payload: 'Script',
  contentType: 'application/javascript',
  problems: [],
});

export const reference = page('/docs', 'getReference', {
  tag: 'discovery',
  summary: 'This document as pages people read (Redoc, served by the service itself)',
  description: 'A page rendering /v1/openapi.json; it loads nothing from other hosts.',
  payload: 'Page',
  contentType: 'text/html',
  problems: [],
});

export const referenceRenderer = page('/docs/redoc.standalone.js', 'getReferenceRenderer', {
  tag: 'discovery',
  summary: "The renderer /docs loads (the npm package redoc's standalone bundle)",
  description: 'Served from this service, so the reference needs no third-party host.',
  payload: 'Script',
  contentType: 'application/javascript',
  problems: [],
});

export const demo = page('/demo', 'getDemoPage', {
  tag: 'discovery',
  summary:
    'A page showing every widget kind, light and dark, each with its embed snippet (404 while DEMO_ENABLED is off)',
  description: 'For trying the embed; off in production unless DEMO_ENABLED is set.',
  payload: 'Page',
  contentType: 'text/html',
  problems: [404],
});

export const advertiserConsole = page('/advertiser/console', 'getAdvertiserConsole', {
  tag: 'advertiser',
  summary: 'The advertiser console: your report as charts and tables, for a range of days (a page for people)',
  description:
    "A fixed page (no key needed to load it): the advertiser signs in on it with its id and key, which stay in the tab's sessionStorage and go only to /advertiser/v1/reports, in headers. Served with a strict Content-Security-Policy (its one script and stylesheet by hash).",
  payload: 'Page',
  contentType: 'text/html',
});
