/**
 * What the service's fixed HTML pages share (the demo, the advertiser console, the compliance
 * page, the withdrawn-link page): escaping text into markup, and naming an inline script or style
 * in a Content-Security-Policy by its hash, so a page allows its own and nothing else.
 */
import { createHash } from 'node:crypto';

/** Escapes text for element content and quoted attribute values. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `'sha256-…'`: a CSP source allowing exactly this inline script or style. */
export const hashSource = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The policy of a page with one inline style and nothing else: no script, image, frame or form. */
export const styleOnlyCsp = (style: string): string =>
  `default-src 'none'; style-src ${hashSource(style)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
