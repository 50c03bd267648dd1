/**
 * GET /v1/embed.js (the <predictwire-widget> bundle) and GET /demo (the demo page): fixed bytes
 * prepared once at start, served with an ETag so browsers revalidate instead of downloading again.
 */
import { createHash } from 'node:crypto';
import { cachedAsset } from '../respond.js';
import type { Handler } from '../types.js';

/** Cacheable everywhere for five minutes, then revalidated (the URL is not versioned). */
const CACHE_CONTROL = 'public, max-age=300';

/** Serves `bytes` as `contentType`, with ETag/304, Cache-Control and CORS. */
export function staticRoute(bytes: Buffer, contentType: string, startedAt: Date): Handler {
  const entry = {
    body: bytes,
    etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
    lastModified: startedAt.toUTCString(),
  };
  return (req) => cachedAsset(req, entry, contentType, { 'cache-control': CACHE_CONTROL });
}
