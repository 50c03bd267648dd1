/**
 * GET /v1/click: verify the signed link (constant time), count the click, redirect (302) to the
 * operator: its contract page for a signed deep link, else its affiliate URL with its sub-ids.
 * Bots and prefetches are redirected but not counted; a click counts once per impression,
 * operator and visitor. An unsigned, altered or expired link is a problem response, never a redirect.
 */
import { operatorById } from '../../catalog/operators.js';
import { isBot, isPrefetch } from '../../tracking/bot-filter.js';
import { landingUrl, verifyClick } from '../../tracking/click-links.js';
import { recordClick, visitorId } from '../../tracking/click-counter.js';
import type { Deps } from '../deps.js';
import { Problem } from '../problem.js';
import type { Handler } from '../types.js';

export function clickRoute(deps: Deps): Handler {
  return async (req) => {
    const now = deps.now();
    const result = verifyClick(req.query, deps.config.clickSigningSecret, now);
    if (!result.ok) {
      if (result.reason === 'expired') throw new Problem(410, 'link_expired', 'This link has expired; reload the widget for a fresh one.');
      throw new Problem(403, 'invalid_link', 'This link is not a valid signed predictwire link.');
    }
    const operator = operatorById(result.target.operatorId);
    if (!operator) throw new Problem(403, 'invalid_link', 'This link names an operator we no longer list.');
    const userAgent = req.headers['user-agent'];
    if (!isBot(userAgent) && !isPrefetch(req.method, req.headers)) {
      const visitor = visitorId(deps.geo.clientAddress(req)?.text);
      try {
        await recordClick(deps.redis, result.target, visitor, now);
      } catch (err) {
        // Losing a count must not strand the visitor: log it and still redirect.
        deps.log.warn({ err: (err as Error).message }, 'click not recorded');
      }
    }
    return {
      status: 302,
      headers: { location: landingUrl(result.target, operator), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer-when-downgrade' },
    };
  };
}
