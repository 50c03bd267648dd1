/**
 * GET /v1/compliance (JSON) and GET /compliance (the page): the compliance matrix this process
 * applies (catalog/compliance/matrix.ts), for everyone, optionally for one `jurisdiction`. Built
 * once per compliance change, UTC day (overdue flags) and jurisdiction asked, then served from
 * memory with an ETag; `no-cache`, so a suspension shows at the next look.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { buildComplianceMatrix } from '../../catalog/compliance/matrix.js';
import { complianceState } from '../../catalog/compliance/state.js';
import { OPERATORS } from '../../catalog/operators.js';
import { bytesRepresentation, jsonRepresentation } from '../../serve/payload-cache.js';
import { cachedReply, CORS_HEADERS, jsonShape, ReplyShape, type Representation } from '../../transport/respond.js';
import type { Handler } from '../../transport/types.js';
import { COMPLIANCE_PAGE_CSP, compliancePage } from '../compliance-page.js';
import type { Deps } from '../deps.js';
import { JurisdictionParam } from '../params.js';
import { parseQuery } from '../query.js';

export const ComplianceQuery = z.object({
  jurisdiction: JurisdictionParam.meta({
    description: 'Only this jurisdiction, with the rows and suspensions that bear on it (default: every one).',
  }),
});

/** Both routes: the JSON and the page. */
export function complianceRoutes(deps: Deps): { json: Handler; page: Handler } {
  // Keyed by what the body depends on; bounded above the jurisdictions there are (about 314).
  const bodies = new LRUCache<string, Representation>({ max: 1_000 });
  const body = (query: string, html: boolean): Representation => {
    const { jurisdiction } = parseQuery(ComplianceQuery, query);
    const nowMs = deps.now();
    const state = complianceState();
    const refused = deps.compliance.refused;
    const key = `${html ? 'html' : 'json'}|${state.version}|${deps.compliance.revision}|${refused?.revision ?? ''}|${new Date(nowMs).toISOString().slice(0, 10)}|${jurisdiction ?? ''}`;
    let entry = bodies.get(key);
    if (!entry) {
      const matrix = buildComplianceMatrix({
        state,
        operators: OPERATORS,
        followed: { revision: deps.compliance.revision, refused },
        nowMs,
        reviewDays: deps.config.complianceReviewDays,
        ...(jurisdiction !== undefined && { only: jurisdiction }),
      });
      const changed = new Date(`${matrix.as_of}T00:00:00Z`);
      entry = html
        ? bytesRepresentation(Buffer.from(compliancePage(matrix)), changed)
        : jsonRepresentation(matrix, changed);
      bodies.set(key, entry);
    }
    return entry;
  };
  const jsonReply = jsonShape({ ...CORS_HEADERS, 'cache-control': 'no-cache' });
  const pageReply = new ReplyShape('text/html; charset=utf-8', {
    ...CORS_HEADERS,
    'cache-control': 'no-cache',
    'content-security-policy': COMPLIANCE_PAGE_CSP,
    'x-content-type-options': 'nosniff',
  });
  return {
    json: (req) => cachedReply(req, body(req.query, false), jsonReply),
    page: (req) => cachedReply(req, body(req.query, true), pageReply),
  };
}
