/**
 * Signed impression URLs: `{base}/v1/impression?w=<widget>&o=<operator ids, comma-separated>[&c=<jurisdiction>][&a=<advertiser>]&e=<expiry>&s=<HMAC>`.
 * A widget payload carries one; the embed requests it once the widget has been viewable (at least
 * half of it in the viewport for a second), other integrations when they show it. The signature
 * covers the widget class, the operators shown, the viewer's jurisdiction and the attributed
 * advertiser (for its report), so a caller can report only what we served.
 * The same data gives the same URL (its expiry is the day-aligned link expiry), so cached bodies
 * keep their bytes.
 */
import { timingSafeEqual } from 'node:crypto';
import { sign, signLink } from './click-links.js';

/** The widget classes that count impressions (the others are polled every few seconds; ctr-counts.ts). */
export type ImpressionWidget = 'broad' | 'event-specific';
const WIDGETS: ReadonlySet<string> = new Set<ImpressionWidget>(['broad', 'event-specific']);

export interface ImpressionTarget {
  widget: ImpressionWidget;
  operatorIds: readonly string[];
  /** The viewer's jurisdiction the widget was built for ("US-NJ"), for the advertiser's report. */
  country?: string;
  /** The advertiser the widget's links are attributed to. */
  advertiserId?: string;
  /** Unix seconds after which the URL is refused. */
  expiresAt: number;
}

const canonical = (t: ImpressionTarget) =>
  `w=${t.widget}&o=${t.operatorIds.map(encodeURIComponent).join(',')}${t.country ? `&c=${encodeURIComponent(t.country)}` : ''}` +
  `${t.advertiserId ? `&a=${encodeURIComponent(t.advertiserId)}` : ''}&e=${t.expiresAt}`;

/** The signed impression URL of a payload showing `operatorIds`; null when it shows none. */
export function impressionUrl(baseUrl: string, secret: string, target: ImpressionTarget): string | null {
  if (target.operatorIds.length === 0) return null;
  const query = canonical(target);
  return `${baseUrl}/v1/impression?${query}&s=${signLink(secret, query)}`;
}

export type ImpressionVerdict =
  | { ok: true; target: ImpressionTarget }
  | { ok: false; reason: 'bad_signature' | 'expired' };

/**
 * Checks an impression query string exactly as we wrote it (constant-time signature comparison);
 * `now` is passed in so expiry is testable.
 */
export function verifyImpression(rawQuery: string, secret: string, now: Date): ImpressionVerdict {
  const at = rawQuery.lastIndexOf('&s=');
  if (at < 0) return { ok: false, reason: 'bad_signature' };
  const query = rawQuery.slice(0, at);
  const given = Buffer.from(rawQuery.slice(at + 3));
  const expected = Buffer.from(sign(secret, query));
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad_signature' };
  // Signed by us, so well formed; parsed defensively all the same.
  const params = new URLSearchParams(query);
  const widget = params.get('w') ?? '';
  const operatorIds = (params.get('o') ?? '').split(',').filter(Boolean);
  const expiresAt = Number(params.get('e'));
  if (!WIDGETS.has(widget) || operatorIds.length === 0 || !Number.isInteger(expiresAt))
    return { ok: false, reason: 'bad_signature' };
  if (expiresAt * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    target: {
      widget: widget as ImpressionWidget,
      operatorIds,
      country: params.get('c') ?? undefined,
      advertiserId: params.get('a') ?? undefined,
      expiresAt,
    },
  };
}
