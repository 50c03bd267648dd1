/** GET /v1/openapi.json: the contract, serialized once at start and served with an ETag. */
import type { Deps } from '../deps.js';
import { buildOpenApi } from '../openapi.js';
import { jsonRepresentation } from '../../serve/payload-cache.js';
import { cachedReply, CORS_HEADERS, ReplyShape } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';

/** The path segment version of the API is the document's version. */
export const CONTRACT_VERSION = 'v1';

export function openApiRoute(deps: Deps): Handler {
  // Fixed for the life of the process: built and hashed once.
  const entry = jsonRepresentation(buildOpenApi(deps.config, CONTRACT_VERSION), new Date(deps.now()));
  const shape = new ReplyShape(
    'application/json; charset=utf-8',
    { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' },
    true,
  );
  return (req) => cachedReply(req, entry, shape);
}
