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

/** A link to another site in a new tab; `sponsored` for the operators' paid links. */
export const out = (url: string, sponsored: boolean) =>
  `href="${safeHref(url)}" target="_blank" rel="${sponsored ? 'sponsored ' : ''}noopener"`;

/** Text for screen readers only. */
export const sr = (text: string): string => `<span class="sr">${esc(text)}</span>`;

/**
 * A signed click link (the payload's own URL: it counts the click, then redirects). `key` lets the
 * widget put focus back on the same link after a re-render.
 */
export function cta(L: Labels, url: string, label: string, operator: string, key: string, cls = 'cta'): string {
  return `<a class="${cls}" ${out(url, true)} data-k="${esc(key)}" data-op="${esc(operator)}">${esc(label)}${sr(` ${L.sponsoredLink(operator)}`)}</a>`;
}

/** The badge on the operator the payload flags `is_best_odds`. */
export const bestOddsBadge = (L: Labels): string => `<span class="badge">${esc(L.bestOdds)}</span>`;

/** A definition list of label/value pairs. */
export const facts = (pairs: ReadonlyArray<readonly [string, string]>, cls = 'facts'): string =>
  `<dl class="${cls}">${pairs.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>`;

/** A message in place of content (no operator, no price). */
export const note = (text: string): string => `<p class="note">${esc(text)}</p>`;

/** What issue "Lawful where shown" adds to every payload; absent until the API sends it. */
export interface Compliance {
  resolved_region?: string | null;
  disclosures?: {
    min_age: number;
    ad_label: string;
    responsible_gambling: { text: string; url: string; phone: string | null };
  } | null;
}

/** The advertisement label and minimum age, above the content (nothing when no operator is shown). */
export function adLine(c: Compliance): string {
  const d = c.disclosures;
  return d ? `<p class="ad"><span>${esc(d.ad_label)}</span> <b class="age">${esc(d.min_age)}+</b></p>` : '';
}

/** A helpline as a tel: URI: vanity letters dialled as on a phone keypad (1-800-GAMBLER is 18004262537). */
export const telUri = (phone: string) =>
  `tel:${phone
    .toUpperCase()
    .replace(/[A-Z]/g, (ch) => String('22233344455566677778889999'[ch.charCodeAt(0) - 65]))
    .replace(/[^\d+]/g, '')}`;

/** The responsible-gambling line under the content, with its link and phone. */
export function gamblingHelp(c: Compliance): string {
  const rg = c.disclosures?.responsible_gambling;
  if (!rg) return '';
  const host = /^https?:\/\/([^/?#]+)/i.exec(rg.url)?.[1];
  return (
    `<p class="rg">${esc(rg.text)}${host ? ` <a ${out(rg.url, false)}>${esc(host)}</a>` : ''}` +
    `${rg.phone ? ` <a href="${esc(telUri(rg.phone))}">${esc(rg.phone)}</a>` : ''}</p>`
  );
}

/**
 * Footer: the visitor's region (else country) the payload was built for, with the attribution
 * DB-IP's licence asks for. The attribution keeps DB-IP's own English wording in every language: it
 * is the licence's credit line, not interface text. `locale` formats the time.
 */
export function footer(L: Labels, region: string, updated: string | undefined, locale: string | undefined): string {
  const time = updated
    ? `<span>${esc(L.updated)} <time datetime="${esc(updated)}">${esc(new Date(updated).toLocaleTimeString(locale))}</time></span> `
    : '';
  return `<footer><span>${esc(L.offersForRegion)} <b>${esc(region)}</b></span> ${time}<a ${out('https://db-ip.com', false)}>IP geolocation by DB-IP</a></footer>`;
}
