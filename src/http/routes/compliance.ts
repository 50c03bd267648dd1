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
import type { Refusal } from '../../catalog/compliance/follower.js';
import { COMPLIANCE_PAGE_CSP, compliancePage } from '../compliance-page.js';
import { operation, queryParams } from '../openapi-parts.js';
import { JurisdictionParam } from '../params.js';
import { CACHED, route } from '../route.js';

export const ComplianceQuery = z.object({
  jurisdiction: JurisdictionParam.meta({
    description: 'Only this jurisdiction, with the rows and suspensions that bear on it (default: every one).',
  }),
});

/** What the matrix is made from besides the rules: what this process follows, the review period, the time. */
export interface ComplianceDeps {
  /** Which compliance revision this process follows, and a published rules document it refused. */
  compliance: { readonly revision: number; readonly refused: Refusal | undefined };
  reviewDays: number;
  now(): number;
}

/** The matrix body for `jurisdiction` (or all), as JSON or the page. */
type ComplianceBody = (jurisdiction: string | undefined, html: boolean) => Representation;

/** Bodies made once per compliance change, UTC day and jurisdiction, shared by both routes. */
export function complianceBodies(deps: ComplianceDeps): ComplianceBody {
  // Keyed by what the body depends on; bounded above the jurisdictions there are (about 314).
  const bodies = new LRUCache<string, Representation>({ max: 1_000 });
  return (jurisdiction, html) => {
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
        reviewDays: deps.reviewDays,
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
}

const JSON_REPLY = jsonShape({ ...CORS_HEADERS, 'cache-control': 'no-cache' });
const PAGE_REPLY = new ReplyShape('text/html; charset=utf-8', {
  ...CORS_HEADERS,
  'cache-control': 'no-cache',
  'content-security-policy': COMPLIANCE_PAGE_CSP,
  'x-content-type-options': 'nosniff',
});

export const complianceJson = route({
  path: '/v1/compliance',
  reads: CACHED,
  query: ComplianceQuery,
  openapi: () =>
    operation('getCompliance', {
      tag: 'compliance',
      summary:
        'Who is shown where and why: every operator by jurisdiction and surface, the rows with their sources and review dates, active suspensions',
      description:
        'What this process applies now (a suspension shows here within seconds). `Cache-Control: no-cache`: revalidate with If-None-Match. The same as a page at /compliance (docs/compliance.md).',
      payload: 'CompliancePayload',
      params: queryParams(ComplianceQuery),
      cached: true,
    }),
  handler: (body: ComplianceBody) => (ctx) => cachedReply(ctx.req, body(ctx.query.jurisdiction, false), JSON_REPLY),
});

export const compliancePageRoute = route({
  path: '/compliance',
  reads: CACHED,
  query: ComplianceQuery,
  openapi: () =>
    operation('getCompliancePage', {
      tag: 'compliance',
      summary: 'The compliance matrix as a page a compliance officer reads (no script)',
      description:
        'The same as /v1/compliance, for people: light and dark, readable on a phone, under a Content-Security-Policy that allows nothing but its own style.',
      payload: 'Page',
      contentType: 'text/html',
      params: queryParams(ComplianceQuery),
      cached: true,
    }),
  handler: (body: ComplianceBody) => (ctx) => cachedReply(ctx.req, body(ctx.query.jurisdiction, true), PAGE_REPLY),
});
