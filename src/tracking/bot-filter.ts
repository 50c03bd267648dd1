/**
 * Requests that must not count as impressions or clicks (they are still answered, and a click is
 * still redirected): crawlers, link-preview fetchers, headless browsers and monitors (the isbot
 * list), and, for clicks, browser prefetches (widgets are fetched by scripts, which never prefetch,
 * so widget routes do not read those headers). For impressions, HTTP libraries (curl, node,
 * python-requests, ...) are taken out of the isbot list on purpose: server-side integrations use
 * them to fetch and show widgets. For clicks they stay in.
 */
import { createIsBotFromList, isbot, list } from 'isbot';

// User agents of HTTP libraries and plain product tokens: the isbot patterns that match them go.
const INTEGRATIONS = [
  'curl/8.4.0',
  'Wget/1.21',
  'node',
  'undici',
  'axios/1.6.0',
  'python-requests/2.31',
  'Go-http-client/1.1',
  'okhttp/4.12',
  'Java/17',
  'Widget Host/1.0',
];

const botFromList = createIsBotFromList(
  list.filter((pattern) => !INTEGRATIONS.some((ua) => new RegExp(pattern, 'i').test(ua))),
);

/** True for an empty or missing user agent, or one that declares automation. */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true;
  return botFromList(userAgent);
}

/**
 * For clicks: true for every automated client, HTTP libraries included. Integrations fetch widgets
 * with curl or node, but a click is a person following a link, never a library.
 */
export function isAutomatedClick(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true;
  return isbot(userAgent);
}

/**
 * True for a speculative fetch the user did not ask for: `Purpose: prefetch` (Chrome, Safari),
 * `Sec-Purpose: prefetch` or `prefetch;prerender` (speculation rules), `X-Moz: prefetch` (Firefox),
 * and HEAD requests (link checkers).
 */
export function isPrefetch(method: string, headers: Readonly<Record<string, string | undefined>>): boolean {
  if (method === 'HEAD') return true;
  const purpose = `${headers.purpose ?? ''} ${headers['sec-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`.toLowerCase();
  return /prefetch|prerender/.test(purpose);
}
