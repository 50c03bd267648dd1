/** Advertiser data endpoints (docs/contract.md: event list, operator comparison). Authentication is applied by the router. */
import { LRUCache } from 'lru-cache';
import { buildEventList, buildSpecificEvent } from '../../widgets/advertiser-events.js';
import { COMPLIANCE } from '../../catalog/compliance.js';
import { operatorById } from '../../catalog/operators.js';
import type { Deps } from '../deps.js';
import { SlugPath, SpecificEventQuery } from '../params.js';
import { invalidParameters, notFound } from '../../problem.js';
import { parseQuery } from '../query.js';
import { cachedReply, jsonShape } from '../../transport/respond.js';
import { findEvent, requireSnapshot } from '../../serve/snapshot-lookup.js';
import type { Handler } from '../../transport/types.js';
import { VariantKeys } from '../../serve/variant-keys.js';
import { viewerJurisdiction } from '../../serve/viewer.js';
import { BODY_TTL_MS } from '../../serve/widget-context.js';

const SHAPE = jsonShape({ 'cache-control': 'private, max-age=5' });

export function eventListRoute(deps: Deps): Handler {
  return (req) => {
    const snap = requireSnapshot(deps.snapshots, 'events', 'all');
    const nowMs = deps.now();
    let entry = deps.payloads.get('events', 'list', nowMs);
    if (!entry) {
      const now = new Date(nowMs);
      const { a, b } = deps.config.advertiserOperators;
      const payload = buildEventList(snap.data.events, now, { operatorA: a, operatorB: b });
      // An event drops off the list when it closes, snapshot change or not.
      const nextClose = Math.min(...snap.data.events.map((e) => Date.parse(e.closesAt)).filter((t) => t > nowMs));
      entry = deps.payloads.put('events', 'list', payload, snap.changedAt, Math.min(nextClose, nowMs + BODY_TTL_MS));
    }
    return cachedReply(req, entry, SHAPE);
  };
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
  if (!slug.success) throw invalidParameters([{ param: 'event_slug', message: slug.error.issues[0]?.message ?? 'invalid' }]);
  return slug.data;
}

export function specificEventRoute(deps: Deps): Handler {
  // An advertiser asks for the same few events over and over: decode and validate each path once.
  const slugs = new LRUCache<string, string>({ max: 1_000 });
  const keys = new VariantKeys((p) => `specific|${p[0]}|${p[1] ?? 'all'}|${p[2]}`);
  return (req) => {
    let slug = slugs.get(req.path);
    if (slug === undefined) slugs.set(req.path, (slug = slugOf(req.path)));
    const q = parseQuery(SpecificEventQuery, req.query);
    const snap = requireSnapshot(deps.snapshots, 'events', 'all');
    const country = viewerJurisdiction(deps.geo, req, q.fallback_geo, true, q.geo);
    const key = keys.of([slug, q.limit, country]);
    let entry = deps.payloads.get('events', key, deps.now());
    if (!entry) {
      const event = findEvent(snap, slug);
      if (!event) throw notFound(`No event with slug "${slug}". GET /advertiser/v1/widgets/events lists the active ones.`);
      const payload = buildSpecificEvent(
        event,
        snap.changedAt,
        {
          operatorA: deps.config.advertiserOperators.a,
          operatorB: deps.config.advertiserOperators.b,
          limit: q.limit,
          country,
          isAllowed: COMPLIANCE.isAllowed,
        },
        { operatorById },
      );
      entry = deps.payloads.put('events', key, payload, snap.changedAt);
    }
    return cachedReply(req, entry, SHAPE);
  };
}
