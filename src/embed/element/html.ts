/// <reference lib="dom" />
/**
 * Markup helpers of the widget: every payload string goes through `esc` before it reaches innerHTML.
 * Interface text comes from the `Labels` table the caller picked (labels.ts).
 */
import type { Labels } from './labels.js';

/** Escapes text for element content and quoted attribute values. */
export const esc = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only http(s) links are followed; anything else (javascript:, data:) becomes an inert anchor. */
const safeHref = (url: string): string => (/^https?:\/\//i.test(url) ? esc(url) : '#');

/** Text for screen readers only. */
export const sr = (text: string): string => `<span class="sr">${esc(text)}</span>`;

/**
 * A signed click link (the payload's own URL: it counts the click, then redirects). `key` lets the
 * widget put focus back on the same link after a re-render.
 */
export function cta(L: Labels, url: string, label: string, operator: string, key: string): string {
  return `<a class="cta" href="${safeHref(url)}" target="_blank" rel="sponsored noopener" data-k="${esc(key)}">${esc(label)}${sr(` ${L.sponsoredLink(operator)}`)}</a>`;
}

/** The badge on the operator the payload flags `is_best_odds`. */
export const bestOddsBadge = (L: Labels): string => `<span class="badge">${esc(L.bestOdds)}</span>`;

/** A definition list of label/value pairs. */
export const facts = (pairs: ReadonlyArray<readonly [string, string]>, cls = 'facts'): string =>
  `<dl class="${cls}">${pairs.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>`;

/** A message in place of content (no operator, no price). */
export const note = (text: string): string => `<p class="note">${esc(text)}</p>`;

/** A table that scrolls sideways on narrow screens; focusable so keyboards can scroll it. */
export const scroller = (label: string, table: string): string =>
  `<div class="scroll" role="region" tabindex="0" aria-label="${esc(label)}">${table}</div>`;

/**
 * Footer: the visitor's country the payload was built for, with the attribution DB-IP's licence asks
 * for. The attribution keeps DB-IP's own English wording in every language: it is the licence's
 * credit line, not interface text. `locale` (the attribute as given) formats the time.
 */
export function footer(L: Labels, geo: string, updated: string | undefined, locale: string | undefined): string {
  const time = updated ? `<span>${esc(L.updated)} <time datetime="${esc(updated)}">${esc(new Date(updated).toLocaleTimeString(locale))}</time></span> ` : '';
  return `<footer><span>${esc(L.offersForRegion)} <b>${esc(geo)}</b></span> ${time}<a href="https://db-ip.com" target="_blank" rel="noopener">IP geolocation by DB-IP</a></footer>`;
}
