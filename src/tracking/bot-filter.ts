/**
 * Requests that must not count as impressions or clicks (they are still answered, and a click is
 * still redirected): self-declared crawlers, link-preview fetchers, headless browsers, monitors,
 * and browser prefetches. A small regex of our own, not a full isbot list; HTTP libraries (curl,
 * node, python-requests) are not classed as bots because server-side integrations use them.
 */

const BOT_UA =
  /bot\b|bot\/|crawl|spider|slurp|scrap|preview|fetcher|facebookexternalhit|embedly|quora link|whatsapp|headless|phantomjs|lighthouse|pingdom|uptime|monitor|gtmetrix|pagespeed|mediapartners|ia_archiver|feedfetch|rss|validator/i;

/** True for an empty or missing user agent, or one that declares automation. */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true;
  return BOT_UA.test(userAgent);
}

/**
 * True for a speculative fetch the user did not ask for: `Purpose: prefetch` (Chrome, Safari),
 * `Sec-Purpose: prefetch` or `prefetch;prerender` (speculation rules), `X-Moz: prefetch` (Firefox),
 * and HEAD requests (link checkers).
 */
export function isPrefetch(method: string, headers: Readonly<Record<string, string>>): boolean {
  if (method === 'HEAD') return true;
  const purpose = `${headers['purpose'] ?? ''} ${headers['sec-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`.toLowerCase();
  return /prefetch|prerender/.test(purpose);
}
