/** GET /v1/catalog: what a publisher can embed, without a key (docs/contract.md, "Catalog"); the same for every caller, so publicly cacheable. */
import { catalogBodies } from '../../serve/catalog-body.js';
import { cachedReply, CORS_HEADERS, jsonShape } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import type { Deps } from '../deps.js';

export function catalogRoute(deps: Deps): Handler {
  const shape = jsonShape({ ...CORS_HEADERS, 'cache-control': `public, max-age=${deps.config.widgetMaxAgeSeconds}` });
  const body = catalogBodies(deps);
  return (req) => cachedReply(req, body(), shape);
}
