/**
 * The four widgets, each declared once for both audiences: public under /v1/widgets/ and, with an
 * advertiser key, under /advertiser/v1/widgets/ (docs/contract.md). One description and one handler
 * serve both; the audience decides how the viewer is placed (audience.ts), who clicks credit, and
 * how the reply may be cached (cache-policy.ts).
 */
import type { z } from 'zod';
import { ACCEPT_LANGUAGE, ADVERTISER_HEADER, operation, queryParams } from './openapi-parts.js';
import type { ComponentName } from './openapi-schemas.js';
import { ADVERTISER, type Read, type RouteDecl, type RouteHandler, route } from './route.js';

export type WidgetName = 'broad' | 'event' | 'sportsbook' | 'live-market';

/** What the document says of a widget, for both audiences. */
export interface WidgetDoc {
  /** The operationId's stem: getX and getAdvertiserX. */
  id: string;
  payload: ComponentName;
  summary: string;
  description: string;
  problems: number[];
  /** Its body depends on Accept-Language. */
  language?: true;
}

/**
 * Both routes of widget `name`: `reads` are the public route's headers (the advertiser's read the
 * key and Accept-Language besides); `handler` makes either's from its parts and whether the caller
 * is authenticated.
 */
export function widgetRoutes<N extends WidgetName, S extends z.ZodObject, D>(
  name: N,
  doc: WidgetDoc,
  query: S,
  reads: readonly Read[],
  handler: (deps: D, authenticated: boolean) => RouteHandler<S>,
): { public: RouteDecl<`/v1/widgets/${N}`, S, D>; advertiser: RouteDecl<`/advertiser/v1/widgets/${N}`, S, D> } {
  const language = doc.language ? [ACCEPT_LANGUAGE] : [];
  return {
    public: route({
      path: `/v1/widgets/${name}`,
      reads,
      query,
      viewer: 'public',
      openapi: () =>
        operation(`get${doc.id}`, {
          tag: 'widgets',
          summary: doc.summary,
          description: `${doc.description} Public: the jurisdiction comes from a trusted CDN's geo headers or the client address (\`fallback_geo\` when neither places it).`,
          payload: doc.payload,
          params: [...queryParams(query, ['geo']), ADVERTISER_HEADER, ...language],
          problems: [...doc.problems],
          cached: true,
        }),
      handler: (deps: D) => handler(deps, false),
    }),
    advertiser: route({
      path: `/advertiser/v1/widgets/${name}`,
      reads: ADVERTISER,
      query,
      auth: true,
      viewer: 'advertiser',
      openapi: () =>
        operation(`getAdvertiser${doc.id}`, {
          tag: 'advertiser',
          summary: `${doc.summary} (advertiser key; \`geo\` names the viewer's jurisdiction, ZZ without it)`,
          description: `${doc.description} For an advertiser's servers: the viewer's jurisdiction is \`geo\`, links credit the advertiser, and every answer says what is left of its allowance.`,
          payload: doc.payload,
          params: [...queryParams(query, ['advertiser_id']), ...language],
          problems: [...doc.problems],
          cached: true,
          advertiser: true,
        }),
      handler: (deps: D) => handler(deps, true),
    }),
  };
}
