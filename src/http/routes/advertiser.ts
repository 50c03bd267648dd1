/** Advertiser data endpoints (docs/contract.md: event list, operator comparison). Authentication is applied by the router. */
import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps.js';
import { SlugPath, SpecificEventQuery } from '../params.js';
import { invalidParameters } from '../../model/problem.js';
import { parseQuery } from '../query.js';
import { cachedReply, jsonShape } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import { advertiserViewerGeo } from '../../serve/viewer.js';
import { eventListBody, specificEventBodies } from '../../serve/advertiser-bodies.js';

const SHAPE = jsonShape({ 'cache-control': 'private, max-age=5' });

export function eventListRoute(deps: Deps): Handler {
  return (req) => cachedReply(req, eventListBody(deps), SHAPE);
}

export const SPECIFIC_PREFIX = '/advertiser/v1/widgets/specific/';

/** The event slug of a `specific/{slug}` path. @throws Problem 400 when it is not a valid slug. */
function slugOf(path: string): string {
  let rawSlug: string;
  try {
    rawSlug = decodeURIComponent(path.slice(SPECIFIC_PREFIX.length));
  } catch {
    rawSlug = '%'; // malformed percent-encoding: let the schema refuse it
  }
  const slug = SlugPath.safeParse(rawSlug);
  if (!slug.success)
    throw invalidParameters([{ param: 'event_slug', message: slug.error.issues[0]?.message ?? 'invalid' }]);
  return slug.data;
}

export function specificEventRoute(deps: Deps): Handler {
  // An advertiser asks for the same few events over and over: decode and validate each path once.
  const slugs = new LRUCache<string, string>({ max: 1_000 });
  const bodies = specificEventBodies(deps);
  return (req) => {
    let slug = slugs.get(req.path);
    if (slug === undefined) slugs.set(req.path, (slug = slugOf(req.path)));
    const q = parseQuery(SpecificEventQuery, req.query);
    const country = advertiserViewerGeo(q.geo).jurisdiction;
    return cachedReply(req, bodies(slug, q.limit, country), SHAPE);
  };
}
