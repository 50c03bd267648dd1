/**
 * GET /v1/click: verify the signed link (constant time), count the click, redirect (302) to the
 * operator: its contract page for a signed deep link, else its affiliate URL with its sub-ids.
 * Bots, HTTP libraries and prefetches are redirected but not counted; a click counts once per
 * visitor, operator and UTC day. The count is buffered in memory (tracking/click-buffer.ts) and
 * never delays the redirect. Over the per-address click limit (an office or a carrier's NAT can
 * be many people) the click is still redirected, but not counted: the limit guards the counts,
 * never a person's way to the operator. It costs one Redis command (answered from memory while
 * Redis is away), none once the address is blocked. An unsigned, altered or expired link is a
 * problem response, never a redirect. A link whose operator may no longer be shown where it was
 * built for (suspended there, or the rules changed) lands on a neutral page, uncounted
 * (serve/click-landing.ts).
 *
 * A counted click carries a click id to the operator, in the sub-id parameter its affiliate
 * programme reads (tracking/click-ids.ts): made here from a block of random bytes, and written to
 * Redis with the click's count by the buffer, so the redirect waits on nothing more.
 */
import { operatorById } from '../../catalog/operators.js';
import { isAutomatedClick, isPrefetch } from '../../tracking/bot-filter.js';
import { newClickId } from '../../tracking/click-ids.js';
import { clickOf, visitorId } from '../../tracking/click-counter.js';
import { FIELDS, verifyClick } from '../../tracking/click-links.js';
import type { ClickBuffer } from '../../tracking/click-buffer.js';
import type { RateLimits } from '../../limits/rate-limits.js';
import type { SnapshotCache } from '../../store/snapshot-cache.js';
import type { JsonSchema } from '../openapi-schemas.js';
import { clickLanding, stillShown } from '../../serve/click-landing.js';
import { WITHDRAWN_CSP, WITHDRAWN_PAGE } from '../withdrawn-page.js';
import { Problem } from '../../model/problem.js';
import type { Request } from '../../transport/types.js';
import { headers, param, problemRefs, PUBLIC, REQUEST_ID, SIGNED } from '../openapi-parts.js';
import { ref } from '../openapi-schemas.js';
import { route, SIGNED_LINK } from '../route.js';

/** What a click reads and counts: the signing secret, the limits, the catalog's state, the buffer. */
export interface ClickDeps {
  clickSigningSecret: string;
  /** The client's address key (geo/address-key.ts). */
  address(req: Request): string;
  limits: Pick<RateLimits, 'anyBlocked' | 'blockedNow' | 'take'>;
  snapshots: SnapshotCache;
  clicks: Pick<ClickBuffer, 'add'>;
  now(): number;
}

const CLICK_FIELDS: Record<(typeof FIELDS)[number][0], JsonSchema> = {
  o: SIGNED.operatorId,
  w: { type: 'string', enum: ['broad', 'sportsbook', 'live-market', 'event-specific'] },
  p: { type: 'string', pattern: '^[^\\x00-\\x1f]+$', maxLength: 200 },
  d: { type: 'string', format: 'uri', maxLength: 2048 },
  c: SIGNED.jurisdiction,
  a: SIGNED.advertiser,
  i: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', maxLength: 64 },
  e: SIGNED.expiry,
};

export const followClick = route({
  path: '/v1/click',
  reads: SIGNED_LINK,
  openapi: () => ({
    get: {
      operationId: 'followClick',
      tags: ['widgets'],
      summary: 'A signed affiliate link: counts the click, redirects to the operator',
      description:
        'Links are minted in widget payloads (`deep_link`, `web_url`, `cta_url`); follow them unchanged, never build one. An address over the click limit is still redirected; its clicks are not counted.',
      parameters: [
        ...FIELDS.map(([short, long]) => param(short, 'query', `Signed field: ${long}.`, CLICK_FIELDS[short])),
        param('s', 'query', 'HMAC-SHA256 signature of the other fields.', SIGNED.signature, true),
        REQUEST_ID,
      ],
      security: PUBLIC,
      responses: {
        '200': {
          description:
            'A neutral page, naming and linking no operator: the operator may no longer be shown where the link was built for (suspended there, or the rules changed). Not counted.',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'text/html': { schema: ref('Page') } },
        },
        '302': {
          description: 'Redirect to the operator.',
          headers: headers('X-Request-Id', 'Location', 'Cache-Control'),
        },
        ...problemRefs([403, 410]),
      },
    },
  }),
  handler:
    (deps: ClickDeps) =>
    async ({ req }) => {
      const now = new Date(deps.now());
      const address = deps.address(req);
      const over =
        (deps.limits.anyBlocked && deps.limits.blockedNow('click', address, now.getTime())) ||
        (await deps.limits.take('click', address));
      const result = verifyClick(req.query, deps.clickSigningSecret, now);
      if (!result.ok) {
        if (result.reason === 'expired')
          throw new Problem(410, 'link_expired', 'This link has expired; reload the widget for a fresh one.');
        throw new Problem(403, 'invalid_link', 'This link is not a valid signed predictwire link.');
      }
      const operator = operatorById(result.target.operatorId);
      if (!operator) throw new Problem(403, 'invalid_link', 'This link names an operator we no longer list.');
      if (!stillShown(result.target, operator, deps.snapshots)) {
        return {
          status: 200,
          headers: [
            'content-type',
            'text/html; charset=utf-8',
            'cache-control',
            'no-store',
            'content-security-policy',
            WITHDRAWN_CSP,
            'x-content-type-options',
            'nosniff',
          ],
          body: WITHDRAWN_PAGE,
        };
      }
      let clickId: string | undefined;
      if (!over && !isAutomatedClick(req.headers['user-agent']) && !isPrefetch(req.method, req.headers)) {
        // Per /64 on IPv6, like the limits: rotating addresses within one subscriber's range mints nothing.
        const click = clickOf(result.target, visitorId(address), now, newClickId(now.getTime()));
        const outcome = deps.clicks.add(click);
        // A repeat of a counted click carries that click's id; a click not counted carries none.
        if (outcome === 'buffered' || outcome === 'duplicate') clickId = click.id;
      }
      return {
        status: 302,
        headers: [
          'location',
          clickLanding(result.target, operator, clickId),
          'cache-control',
          'no-store',
          'referrer-policy',
          'no-referrer-when-downgrade',
        ],
      };
    },
});
