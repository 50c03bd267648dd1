/** GET /v1/click: verify the signed link, count the click, redirect to the operator. */
import { operatorById } from '../../catalog/operators.js';
import { landingUrl, verifyClick } from '../../tracking/click-links.js';
import { recordClick } from '../../tracking/click-counter.js';
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
    try {
      await recordClick(deps.redis, result.target, now);
    } catch (err) {
      // Losing a count must not strand the visitor: log it and still redirect.
      deps.log.warn({ err: (err as Error).message }, 'click not recorded');
    }
    return {
      status: 302,
      headers: { location: landingUrl(result.target, operator), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer-when-downgrade' },
    };
  };
}
