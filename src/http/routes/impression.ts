/**
 * GET /v1/impression: a viewable impression of a widget, reported with the signed URL its payload
 * carries (`impression_url`; tracking/impression-links.ts). Counts the operators it lists once per
 * visitor (a hash of the client address), operator, widget class and UTC day across all API
 * processes, through the batched impression counter (bots are left out there); prefetches and HEAD
 * count nothing. Answers 204 without waiting on Redis. An unsigned, altered or expired URL is a
 * problem response.
 */
import { isPrefetch } from '../../tracking/bot-filter.js';
import { visitorId } from '../../tracking/click-counter.js';
import { verifyImpression } from '../../tracking/impression-links.js';
import type { ImpressionCounter } from '../../tracking/impression-counter.js';
import { Problem } from '../../model/problem.js';
import { CORS_HEADERS } from '../../transport/respond.js';
import { headerList, type Reply, type Request } from '../../transport/types.js';
import { headers, param, problemRefs, PUBLIC, REQUEST_ID, SIGNED } from '../openapi-parts.js';
import { route, SIGNED_LINK } from '../route.js';

const COUNTED: Reply = { status: 204, headers: headerList({ ...CORS_HEADERS, 'cache-control': 'no-store' }) };

/** What an impression reads and counts. */
export interface ImpressionDeps {
  clickSigningSecret: string;
  /** The client's address key (geo/address-key.ts). */
  address(req: Request): string;
  impressions: Pick<ImpressionCounter, 'record'>;
  now(): number;
}

export const impression = route({
  path: '/v1/impression',
  reads: SIGNED_LINK,
  openapi: () => ({
    get: {
      operationId: 'reportImpression',
      tags: ['widgets'],
      summary: 'A viewable impression: counts each operator the payload showed, once per visitor and UTC day',
      description:
        'The URL is minted in broad and event payloads (`impression_url`); request it unchanged once the widget is viewable (at least half of it in the viewport for one second). Fetching widget data counts no impression. Bots, prefetches and HEAD are answered but not counted.',
      parameters: [
        param(
          'w',
          'query',
          'Signed field: the widget class.',
          { type: 'string', enum: ['broad', 'event-specific'] },
          true,
        ),
        param(
          'o',
          'query',
          'Signed field: the operator ids shown, comma-separated.',
          { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,39}(,[a-z0-9][a-z0-9-]{0,39})*$', maxLength: 1024 },
          true,
        ),
        param('c', 'query', "Signed field: the viewer's jurisdiction the widget was built for.", SIGNED.jurisdiction),
        param('a', 'query', 'Signed field: the advertiser the links are attributed to.', SIGNED.advertiser),
        param('e', 'query', 'Signed field: expiry (Unix seconds).', SIGNED.expiry, true),
        param('s', 'query', 'HMAC-SHA256 signature of the other fields.', SIGNED.signature, true),
        REQUEST_ID,
      ],
      security: PUBLIC,
      responses: {
        '204': {
          description: 'Reported (counted unless already counted for this visitor today, or automated).',
          headers: headers('X-Request-Id', 'Cache-Control', 'Access-Control-Allow-Origin'),
        },
        ...problemRefs([403, 410]),
      },
    },
  }),
  handler:
    (deps: ImpressionDeps) =>
    ({ req }) => {
      const now = new Date(deps.now());
      const result = verifyImpression(req.query, deps.clickSigningSecret, now);
      if (!result.ok) {
        if (result.reason === 'expired')
          throw new Problem(410, 'link_expired', 'This impression URL has expired; reload the widget for a fresh one.');
        throw new Problem(403, 'invalid_link', 'This is not a valid signed predictwire impression URL.');
      }
      if (!isPrefetch(req.method, req.headers)) {
        deps.impressions.record(result.target, visitorId(deps.address(req)), req.headers['user-agent'], now);
      }
      return COUNTED;
    },
});
