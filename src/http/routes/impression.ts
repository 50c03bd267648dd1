/**
 * GET /v1/impression: a viewable impression of a widget, reported with the signed URL its payload
 * carries (`impression_url`; tracking/impression-links.ts). Counts the operators it lists once per
 * visitor (a hash of the client address), operator, widget class and UTC day across all API
 * processes, through the batched impression counter (bots are left out there); prefetches and HEAD
 * count nothing. Answers 204 without waiting on Redis. An unsigned, altered or expired URL is a
 * problem response.
 */
import { addressKey } from '../../geo/address-key.js';
import { isPrefetch } from '../../tracking/bot-filter.js';
import { visitorId } from '../../tracking/click-counter.js';
import { verifyImpression } from '../../tracking/impression-links.js';
import type { Deps } from '../deps.js';
import { Problem } from '../../model/problem.js';
import { CORS_HEADERS } from '../../transport/respond.js';
import { headerList, type Handler, type Reply } from '../../transport/types.js';

const COUNTED: Reply = { status: 204, headers: headerList({ ...CORS_HEADERS, 'cache-control': 'no-store' }) };

export function impressionRoute(deps: Deps): Handler {
  return (req) => {
    const now = new Date(deps.now());
    const result = verifyImpression(req.query, deps.config.clickSigningSecret, now);
    if (!result.ok) {
      if (result.reason === 'expired')
        throw new Problem(410, 'link_expired', 'This impression URL has expired; reload the widget for a fresh one.');
      throw new Problem(403, 'invalid_link', 'This is not a valid signed predictwire impression URL.');
    }
    if (!isPrefetch(req.method, req.headers)) {
      deps.impressions.record(
        result.target,
        visitorId(addressKey(deps.geo.clientAddress(req))),
        req.headers['user-agent'],
        now,
      );
    }
    return COUNTED;
  };
}
