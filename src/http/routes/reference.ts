/**
 * GET /docs: the OpenAPI document rendered as pages by Redoc (the npm package `redoc`, its
 * standalone bundle), served by this service from /docs/redoc.standalone.js: no third-party host
 * at run time (the page's Content-Security-Policy allows none). Both are fixed bytes read once at start and served with an ETag; the bundle (about
 * 1 MB) is compressed at the default setting, so the first request that accepts a coding does not
 * hold the process for the seconds the maximum setting takes.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PageHandler } from './embed.js';
import { staticRoute } from './embed.js';

export const REFERENCE_PATH = '/docs';
export const RENDERER_PATH = '/docs/redoc.standalone.js';

/** The page: the document rendered in place (relative URLs, so it works behind any base URL). */
export const referencePage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>predictwire API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/v1/openapi.json" expand-responses="200" required-props-first="true"></redoc>
<script src="${RENDERER_PATH}"></script>
</body>
</html>
`;

/**
 * The page's policy: everything from this service only. The renderer's menu shows its maker's logo
 * from their CDN; the policy stops the browser from fetching it (the renderer then leaves it out).
 * Styles are injected at run time and search runs in a worker made from a blob.
 */
export const REFERENCE_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'";

/** The renderer's bundle, as installed. */
export const loadRenderer = (): Promise<Buffer> =>
  readFile(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'));

/** The page and the bundle, by path. */
export async function referenceRoutes(
  startedAt: Date,
): Promise<Record<typeof REFERENCE_PATH | typeof RENDERER_PATH, PageHandler>> {
  return {
    [REFERENCE_PATH]: staticRoute(Buffer.from(referencePage()), 'text/html; charset=utf-8', startedAt, {
      headers: { 'content-security-policy': REFERENCE_CSP },
    }),
    [RENDERER_PATH]: staticRoute(await loadRenderer(), 'application/javascript; charset=utf-8', startedAt, {
      maxCompression: false,
    }),
  };
}
