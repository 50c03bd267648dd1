/** Advertiser data endpoints (docs/contract.md: event list, operator comparison). Each declares `auth`: the pipeline checks the key first (auth.ts). */
import { LRUCache } from 'lru-cache';
import { SlugPath, SpecificEventQuery } from '../params.js';
import { invalidParameters } from '../../model/problem.js';
import { cachedReply, jsonShape } from '../../transport/respond.js';
import type { ServeContext } from '../../serve/context.js';
import { eventListBody, specificEventBodies } from '../../serve/advertiser-bodies.js';
import { operation, param, queryParams } from '../openapi-parts.js';
import { parameterSchema } from '../openapi-schemas.js';
import { ADVERTISER, route } from '../route.js';

const SHAPE = jsonShape({ 'cache-control': 'private, max-age=5' });

export const eventList = route({
  path: '/advertiser/v1/widgets/events',
  reads: ADVERTISER,
  auth: true,
  openapi: () =>
    operation('getAdvertiserEventList', {
      tag: 'advertiser',
      summary: 'Slugs of the events not yet closed',
      description: 'The slugs to ask the operator comparison for: every event of the catalog not yet closed.',
      payload: 'EventListPayload',
      cached: true,
      advertiser: true,
    }),
  handler: (serve: ServeContext) => (ctx) => cachedReply(ctx.req, eventListBody(serve), SHAPE),
});

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

export const specificEvent = route({
  path: '/advertiser/v1/widgets/specific/{event_slug}',
  reads: ADVERTISER,
  query: SpecificEventQuery,
  auth: true,
  viewer: 'advertiser',
  openapi: () =>
    operation('getAdvertiserSpecificEvent', {
      tag: 'advertiser',
      summary: 'One event compared between operator A and operator B',
      description:
        "Each outcome of one event priced by two operators side by side, with whether each may be shown in the viewer's jurisdiction (`geo`).",
      payload: 'SpecificEventPayload',
      params: [
        param('event_slug', 'path', 'An event slug from the event list.', parameterSchema(SlugPath), true),
        ...queryParams(SpecificEventQuery),
      ],
      problems: [404],
      cached: true,
      advertiser: true,
    }),
  handler: (serve: ServeContext) => {
    // An advertiser asks for the same few events over and over: decode and validate each path once.
    const slugs = new LRUCache<string, string>({ max: 1_000 });
    const bodies = specificEventBodies(serve);
    return ({ req, query: q, viewer }) => {
      let slug = slugs.get(req.path);
      if (slug === undefined) slugs.set(req.path, (slug = slugOf(req.path)));
      return cachedReply(req, bodies(slug, q.limit, viewer.geo.jurisdiction), SHAPE);
    };
  },
});
