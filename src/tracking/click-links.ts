/**
 * Signed affiliate click links: `{base}/v1/click?<query>&s=<HMAC-SHA256 over the query>`.
 * The destination is never taken on trust from a request: either the operator's configured
 * affiliate URL, or a contract page that we signed ourselves and whose host belongs to that
 * operator's domain.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { OperatorSites, Site } from '../catalog/operator-sites.js';
import { withinDomains } from '../domain/web-domains.js';

export interface ClickTarget {
  operatorId: string;
  /** Widget class that showed the link. */
  widget: 'broad' | 'sportsbook' | 'live-market' | 'event-specific';
  /** Where in the widget: an event slug, a league, an asset. */
  placement: string;
  /** A contract page to land on instead of the affiliate home (event deep links). */
  destination?: string;
  /** The viewer's jurisdiction the link was built for ("US-NJ", "BR"): it picks the licensed site. */
  country?: string;
  advertiserId?: string;
  impressionId: string;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

// Short, fixed parameter names keep links compact; order is fixed so signatures are canonical.
export const FIELDS = [
  ['o', 'operatorId'],
  ['w', 'widget'],
  ['p', 'placement'],
  ['d', 'destination'],
  ['c', 'country'],
  ['a', 'advertiserId'],
  ['i', 'impressionId'],
  ['e', 'expiresAt'],
] as const;

function canonical(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const [short] of FIELDS) {
    const v = params.get(short);
    if (v !== null) out.set(short, v);
  }
  return out.toString();
}

/** The HMAC-SHA256 (base64url) of a canonical query: click and impression links are signed alike. */
export function sign(secret: string, query: string): string {
  return createHmac('sha256', secret).update(query).digest('base64url');
}

// A body's links repeat across its display and odds formats, its rebuilds within one data version
// and its advertisers' variants: each HMAC (about 3 µs) is made once. Links we build only, never
// queries a client sent (verification signs afresh). Keyed by query; the secret is checked too.
const linkSignatures = new LRUCache<string, { secret: string; signature: string }>({ max: 10_000 });

/** `sign` for a link we build, remembered for the next body that carries the same link. */
export function signLink(secret: string, query: string): string {
  const hit = linkSignatures.get(query);
  if (hit !== undefined && hit.secret === secret) return hit.signature;
  const signature = sign(secret, query);
  linkSignatures.set(query, { secret, signature });
  return signature;
}

function hasUserinfo(url: string): boolean {
  // Userinfo ends with "@": most destinations need no parse.
  if (!url.includes('@')) return false;
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

// What encodeURIComponent leaves as it is but the form encoding escapes, and its space.
const NOT_FORM = /[!'()~]|%20/g;
const formEscape = (c: string) => (c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `value` exactly as URLSearchParams serializes it (application/x-www-form-urlencoded), the form
 * `verifyClick` compares against. By hand because a body rebuild makes a link per quote, and a
 * URLSearchParams per link was about a tenth of an event body's build (bench/log/2026-12.md).
 */
export function formEncode(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    // A lone surrogate: URLSearchParams writes it as U+FFFD, encodeURIComponent refuses it.
    return new URLSearchParams([['', value]]).toString().slice(1);
  }
  return encoded.replace(NOT_FORM, formEscape);
}

// A link's values are mostly strings of the snapshot it is built from (operator ids, slugs, contract
// pages), the same string objects in every body of a data version: V8 keeps a string's hash with it,
// so looking one up costs less than encoding it again.
const encodedValues = new LRUCache<string, string>({ max: 10_000 });

function encodedValue(value: string): string {
  let encoded = encodedValues.get(value);
  if (encoded === undefined) encodedValues.set(value, (encoded = formEncode(value)));
  return encoded;
}

/** Builds the signed click URL for a target; a destination with userinfo is left out. */
export function clickUrl(baseUrl: string, secret: string, target: ClickTarget): string {
  let query = '';
  for (const [short, long] of FIELDS) {
    const v = target[long];
    if (long === 'destination' && v !== undefined && hasUserinfo(String(v))) continue; // never signed
    if (v === undefined || v === '') continue;
    // In FIELDS order, so already canonical. An integer's digits need no encoding.
    const value = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : encodedValue(String(v));
    query += `${query === '' ? '' : '&'}${short}=${value}`;
  }
  return `${baseUrl}/v1/click?${query}&s=${signLink(secret, query)}`;
}

export type VerifyResult =
  | { ok: true; target: ClickTarget }
  | { ok: false; reason: 'unsigned' | 'bad_signature' | 'expired' | 'malformed' };

const WIDGETS = new Set(['broad', 'sportsbook', 'live-market', 'event-specific']);

/**
 * Verifies a click query string (constant-time signature comparison) and decodes its target.
 * `now` is passed in so expiry is testable.
 */
export function verifyClick(rawQuery: string, secret: string, now: Date): VerifyResult {
  // Sites and mail tools append utm_* tags to links they pass on: they are not ours, carry no
  // meaning here and are dropped before the signature is checked.
  const signed = rawQuery
    .split('&')
    .filter((p) => !p.startsWith('utm_'))
    .join('&');
  const params = new URLSearchParams(signed);
  const sigs = params.getAll('s');
  const sig = sigs[0];
  if (!sig) return { ok: false, reason: 'unsigned' };
  if (sigs.length !== 1 || !signed.endsWith(`s=${sig}`)) return { ok: false, reason: 'bad_signature' };
  // The signature covers exactly the canonical form; any other extra, reordered or repeated
  // parameter changes the query and is refused.
  const query = canonical(params);
  const rest = new URLSearchParams(signed);
  rest.delete('s');
  if (rest.toString() !== query) return { ok: false, reason: 'bad_signature' };
  const expected = Buffer.from(sign(secret, query));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad_signature' };
  const o = params.get('o');
  const w = params.get('w');
  const p = params.get('p');
  const i = params.get('i');
  const e = Number(params.get('e'));
  if (!o || !w || !WIDGETS.has(w) || !p || !i || !Number.isInteger(e)) return { ok: false, reason: 'malformed' };
  if (e * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    target: {
      operatorId: o,
      widget: w as ClickTarget['widget'],
      placement: p,
      destination: params.get('d') ?? undefined,
      country: params.get('c') ?? undefined,
      advertiserId: params.get('a') ?? undefined,
      impressionId: i,
      expiresAt: e,
    },
  };
}

/**
 * Which of our values an operator's affiliate program takes, and under which parameter names;
 * `click` carries the click id its postbacks quote back (click-ids.ts) on its default site (a
 * licensed site names its own, `clickIdParam`).
 */
export type SubIdParams = Partial<
  Record<'impression' | 'advertiser' | 'widget' | 'placement' | 'country' | 'click', string>
>;

/**
 * The operator's affiliate URL with the sub-id parameters it takes, filled from the signed target,
 * and the click's id under `clickParam` (no id for a click not counted).
 */
export function affiliateUrlWithSubIds(
  target: ClickTarget,
  affiliateUrl: string,
  subIdParams: SubIdParams | undefined,
  clickParam?: string,
  clickId?: string,
): string {
  if (!subIdParams && !(clickParam && clickId)) return affiliateUrl;
  const values: Record<keyof SubIdParams, string | undefined> = {
    impression: target.impressionId,
    advertiser: target.advertiserId,
    widget: target.widget,
    placement: target.placement,
    country: target.country,
    // Set below, under the site's own parameter.
    click: undefined,
  };
  const url = new URL(affiliateUrl);
  for (const [field, param] of Object.entries(subIdParams ?? {}) as Array<[keyof SubIdParams, string | undefined]>) {
    const value = values[field];
    if (param && value) url.searchParams.set(param, value);
  }
  if (clickParam && clickId) url.searchParams.set(clickParam, clickId);
  return url.toString();
}

/** The site for a visitor in `jurisdiction`: the one licensed in its subdivision, else its country, else the default. */
export function siteFor(operator: OperatorSites, jurisdiction: string | undefined): Site {
  const licensed =
    jurisdiction === undefined
      ? undefined
      : (operator.destinations.find((d) => d.jurisdictions.includes(jurisdiction)) ??
        operator.destinations.find((d) => d.jurisdictions.includes(jurisdiction.slice(0, 2))));
  return (
    licensed ?? {
      affiliateUrl: operator.affiliateUrl,
      webDomains: operator.webDomains,
      clickIdParam: operator.subIdParams?.click,
    }
  );
}

/** The query parameter that carries the click id to `operator`'s site for `jurisdiction`, if it takes one. */
export const clickIdParam = (operator: OperatorSites, jurisdiction: string | undefined): string | undefined =>
  siteFor(operator, jurisdiction).clickIdParam;

/**
 * Where a verified click lands: the signed contract page when it is https, without userinfo and
 * within the domains of the operator's site for the link's jurisdiction, else that site's
 * affiliate URL; either way with the operator's sub-ids and the click's id, so deep links are
 * attributed like the rest.
 */
export function landingUrl(target: ClickTarget, operator: OperatorSites, clickId?: string): string {
  const site = siteFor(operator, target.country);
  if (target.destination) {
    try {
      const dest = new URL(target.destination);
      // Userinfo ("https://kalshi.com@evil.example" reads as a host to people) never lands.
      const plain = dest.username === '' && dest.password === '';
      if (dest.protocol === 'https:' && plain && withinDomains(dest.hostname, site.webDomains)) {
        return affiliateUrlWithSubIds(target, dest.toString(), operator.subIdParams, site.clickIdParam, clickId);
      }
    } catch {
      // fall through to the affiliate URL
    }
  }
  return affiliateUrlWithSubIds(target, site.affiliateUrl, operator.subIdParams, site.clickIdParam, clickId);
}
