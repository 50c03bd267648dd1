/** Builds the pure WidgetContext from the process's config and catalog. */
import { createHash, randomBytes } from 'node:crypto';
import { shownOperators } from '../catalog/shown-operators.js';
import type { Config } from '../config.js';
import { UNKNOWN_COUNTRY } from '../geo/countries.js';
import { clickUrl } from '../tracking/click-links.js';
import { impressionUrl } from '../tracking/impression-links.js';
import type { WidgetContext } from '../widgets/context.js';

const DAY_SECONDS = 86_400;
/** Links stay valid at least this long; cached bodies are rebuilt well before that. */
export const LINK_TTL_SECONDS = 7 * DAY_SECONDS;
export const BODY_TTL_MS = 3_600_000;

/**
 * The context for one build. With a `variant` (the widget class and the data versions, never a
 * caller-chosen field, so a client cannot mint impression ids), the impression id is derived
 * from it and link expiry is aligned to the UTC day, so the same data builds the same
 * bytes on every API process and after every rebuild: ETags stay stable and 304s work behind a load
 * balancer. Without one (a body built per request), the id is random. `country` is the visitor's
 * resolved country: the builders see only operators allowed there (none for the default, ZZ).
 */
export function widgetContext(config: Config, now: Date, advertiserId?: string, variant?: string, country: string = UNKNOWN_COUNTRY): WidgetContext {
  const nowSec = Math.floor(now.getTime() / 1000);
  const linkExpiresAt = variant === undefined ? nowSec + LINK_TTL_SECONDS : Math.floor(nowSec / DAY_SECONDS) * DAY_SECONDS + LINK_TTL_SECONDS + DAY_SECONDS;
  return {
    ...shownOperators(country),
    clickUrl: (target) => clickUrl(config.publicBaseUrl, config.clickSigningSecret, target),
    impressionUrl: (widget, operatorIds) =>
      impressionUrl(config.publicBaseUrl, config.clickSigningSecret, { widget, operatorIds, country, advertiserId, expiresAt: linkExpiresAt }),
    linkExpiresAt,
    impressionId:
      variant === undefined ? randomBytes(9).toString('base64url') : createHash('sha256').update(variant).digest('base64url').slice(0, 12),
    advertiserId,
  };
}
