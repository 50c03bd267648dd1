/** GET /v1/catalog: what a publisher can embed, without a key (docs/contract.md, "Catalog"); the same for every caller, so publicly cacheable. */
import type { ServeContext } from '../../serve/context.js';
import { catalogBodies } from '../../serve/catalog-body.js';
import { cachedReply, CORS_HEADERS, jsonShape } from '../../transport/respond.js';
import { operation } from '../openapi-parts.js';
import { CACHED, route } from '../route.js';

export const catalog = route({
  path: '/v1/catalog',
  reads: CACHED,
  openapi: () =>
    operation('getCatalog', {
      tag: 'discovery',
      summary: 'What can be embedded: events, league matchups, live markets (no key)',
      description:
        'The same for every caller: not filtered by country or advertiser (each widget request is). Publicly cacheable.',
      payload: 'CatalogPayload',
      problems: [503],
      cached: true,
    }),
  handler: (serve: ServeContext) => {
    const shape = jsonShape({
      ...CORS_HEADERS,
      'cache-control': `public, max-age=${serve.config.widgetMaxAgeSeconds}`,
    });
    const body = catalogBodies(serve);
    return ({ req }) => cachedReply(req, body(), shape);
  },
});
