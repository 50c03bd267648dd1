/** Builds the pure WidgetContext from the process's config and catalog. */
import { randomBytes } from 'node:crypto';
import { operatorById } from '../catalog/operators.js';
import type { Config } from '../config.js';
import { clickUrl } from '../tracking/click-links.js';
import type { WidgetContext } from '../widgets/context.js';

/** Links stay valid this long; cached bodies are rebuilt well before that. */
export const LINK_TTL_SECONDS = 7 * 86_400;
export const BODY_TTL_MS = 3_600_000;

export function widgetContext(config: Config, now: Date, advertiserId?: string): WidgetContext {
  return {
    operatorById,
    clickUrl: (target) => clickUrl(config.publicBaseUrl, config.clickSigningSecret, target),
    linkExpiresAt: Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS,
    impressionId: randomBytes(9).toString('base64url'),
    advertiserId,
  };
}
