/**
 * GET /v1/embed.js (the <predictwire-widget> bundle) and GET /demo (the demo page): fixed bytes
 * prepared once at start, served with an ETag so browsers revalidate instead of downloading again.
 */
import { bytesRepresentation } from '../../serve/payload-cache.js';
import { cachedReply, CORS_HEADERS, ReplyShape } from '../../transport/respond.js';
import type { Request } from '../../transport/types.js';
import type { Next } from '../pipeline.js';

/** A fixed page's handler: it reads nothing of the request but its validators and codings. */
export type PageHandler = Next<{ readonly req: Request }>;

/** Cacheable everywhere for five minutes, then revalidated (the URL is not versioned). */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * Serves `bytes` as `contentType`, with ETag/304, Cache-Control, CORS and any fixed `headers`;
 * compressed once per process, at the smallest setting unless `maxCompression` is false (a large
 * body would hold the process for seconds at it).
 */
export function staticRoute(
  bytes: Buffer,
  contentType: string,
  startedAt: Date,
  {
    maxCompression = true,
    headers = {},
  }: { maxCompression?: boolean; headers?: Readonly<Record<string, string>> } = {},
): PageHandler {
  const entry = bytesRepresentation(bytes, startedAt);
  const shape = new ReplyShape(
    contentType,
    { ...CORS_HEADERS, 'cache-control': CACHE_CONTROL, ...headers },
    maxCompression,
  );
  return ({ req }) => cachedReply(req, entry, shape);
}
