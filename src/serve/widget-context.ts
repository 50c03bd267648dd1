/** Builds the pure WidgetContext from the process's config and catalog. */
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { catalogView } from '../catalog/shown-operators.js';
import type { Config } from '../config.js';
import { UNKNOWN_COUNTRY } from '../geo/countries.js';
import { clickUrl } from '../tracking/click-links.js';
import { impressionUrl } from '../tracking/impression-links.js';
import type { WidgetContext } from '../widgets/context.js';

const DAY_SECONDS = 86_400;
/** Links stay valid at least this long; cached bodies are rebuilt well before that. */
export const LINK_TTL_SECONDS = 7 * DAY_SECONDS;
export const BODY_TTL_MS = 3_600_000;

// A context is made for every body built (hundreds a second while data moves), and every body of
// one variant string (a data version) shares its impression id: hashed once. The bound exceeds the
// data versions real traffic holds at once.
const variantIds = new LRUCache<string, string>({ max: 1_024 });

/** A stable id for the bodies of one `variant`: anyone can recompute it, nobody can choose it. */
function variantId(variant: string): string {
  let id = variantIds.get(variant);
  if (id === undefined)
    variantIds.set(variant, (id = createHash('sha256').update(variant).digest('base64url').slice(0, 12)));
  return id;
}

// randomBytes costs about 3 µs a call whatever its size: draw ids 9 bytes at a time from a block.
const ID_BYTES = 9;
let pool = Buffer.alloc(0);
let poolAt = 0;

/** A random 12-character id (72 bits). */
function randomId(): string {
  if (poolAt + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * 256);
    poolAt = 0;
  }
  poolAt += ID_BYTES;
  return pool.toString('base64url', poolAt - ID_BYTES, poolAt);
}

/**
 * The context for one build. With a `variant` (the widget class and the data versions, never a
 * caller-chosen field, so a client cannot mint impression ids), the impression id is derived
 * from it and link expiry is aligned to the UTC day, so the same data builds the same
 * bytes on every API process and after every rebuild: ETags stay stable and 304s work behind a load
 * balancer. Without one (a body built per request), the id is random. `country` is the visitor's
 * resolved country: the builders see only operators allowed there (none for the default, ZZ).
 */
export function widgetContext(
  config: Config,
  now: Date,
  advertiserId?: string,
  variant?: string,
  country: string = UNKNOWN_COUNTRY,
): WidgetContext {
  const nowSec = Math.floor(now.getTime() / 1000);
  const linkExpiresAt =
    variant === undefined
      ? nowSec + LINK_TTL_SECONDS
      : Math.floor(nowSec / DAY_SECONDS) * DAY_SECONDS + LINK_TTL_SECONDS + DAY_SECONDS;
  const view = catalogView(country);
  // Field by field rather than `...view`: Node 20 takes a slow path (about 1.5 µs) for a spread
  // followed by further properties.
  return {
    jurisdiction: view.jurisdiction,
    country: view.country,
    region: view.region,
    operatorOn: view.operatorOn,
    offerFor: view.offerFor,
    disclosureFor: view.disclosureFor,
    clickUrl: (target) => clickUrl(config.publicBaseUrl, config.clickSigningSecret, target),
    impressionUrl: (widget, operatorIds) =>
      impressionUrl(config.publicBaseUrl, config.clickSigningSecret, {
        widget,
        operatorIds,
        country,
        advertiserId,
        expiresAt: linkExpiresAt,
      }),
    linkExpiresAt,
    impressionId: variant === undefined ? randomId() : variantId(variant),
    advertiserId,
  };
}
