/** GET /v1/openapi.json: the contract, serialized once at start and served with an ETag. */
import { jsonRepresentation } from '../../serve/payload-cache.js';
import { cachedReply, CORS_HEADERS, ReplyShape } from '../../transport/respond.js';
import { operation } from '../openapi-parts.js';
import { CACHED, route } from '../route.js';

/** The path segment version of the API is the document's version. */
export const CONTRACT_VERSION = 'v1';

export const openApiDocument = route({
  path: '/v1/openapi.json',
  reads: CACHED,
  openapi: () =>
    operation('getOpenApi', {
      tag: 'discovery',
      summary: 'This document',
      description:
        'The OpenAPI 3.1 document of this API as this process serves it: built at start, the same until it restarts.',
      payload: 'OpenApiDocument',
      cached: true,
    }),
  // Fixed for the life of the process: built (openapi.ts) and hashed once.
  handler: ({ document, startedAt }: { document: object; startedAt: Date }) => {
    const entry = jsonRepresentation(document, startedAt);
    const shape = new ReplyShape(
      'application/json; charset=utf-8',
      { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' },
      true,
    );
    return ({ req }) => cachedReply(req, entry, shape);
  },
});
