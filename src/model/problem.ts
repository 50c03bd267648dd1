/** RFC 9457 problem details: the one error shape of the API. Every code is documented in docs/problems.md. */
import { z } from 'zod';

export interface ParamError {
  param: string;
  message: string;
}

export const PROBLEM_CODES = [
  'invalid_parameter',
  'missing_credentials',
  'invalid_credentials',
  'not_found',
  'invalid_link',
  'link_expired',
  'invalid_signature',
  'unknown_click',
  'click_expired',
  'method_not_allowed',
  'upgrade_required',
  'rate_limited',
  'data_unavailable',
  'internal_error',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const TITLES: Record<ProblemCode, string> = {
  invalid_parameter: 'Invalid parameter',
  missing_credentials: 'Missing credentials',
  invalid_credentials: 'Invalid credentials',
  not_found: 'Not found',
  invalid_link: 'Invalid link',
  link_expired: 'Link expired',
  invalid_signature: 'Invalid signature',
  unknown_click: 'Unknown click',
  click_expired: 'Click expired',
  method_not_allowed: 'Method not allowed',
  upgrade_required: 'Upgrade required',
  rate_limited: 'Too many requests',
  data_unavailable: 'Data not yet available',
  internal_error: 'Internal error',
};

/** Where the codes are explained: docs/problems.md, one section per code, as published. */
export const PROBLEM_DOCS = 'https://predictwire.dev/docs/problems';

/** The `type` URI of a code: the docs section named after it (`invalid_parameter` → `#invalid-parameter`). */
export const problemType = (code: ProblemCode) => `${PROBLEM_DOCS}#${code.replaceAll('_', '-')}`;

/** The body of every error answer (`application/problem+json`); the OpenAPI document publishes it. */
export const ProblemBody = z
  .object({
    type: z
      .enum(PROBLEM_CODES.map(problemType) as [string, ...string[]])
      .describe("The problem's section of docs/problems.md (RFC 9457 type URI)."),
    title: z.enum(Object.values(TITLES) as [string, ...string[]]).describe('Short, fixed summary of the problem type.'),
    status: z.number().int().min(400).max(599).describe('The HTTP status.'),
    detail: z.string().describe('What went wrong with this request, for a person.'),
    code: z.enum(PROBLEM_CODES).describe('Stable machine code of the problem.'),
    errors: z
      .array(
        z.object({
          param: z.string().describe('The parameter or header.'),
          message: z.string().describe('What is wrong with it.'),
        }),
      )
      .describe('Each bad parameter or header; empty when no single input is at fault.'),
    request_id: z.string().optional().describe("The request's X-Request-Id, to quote when reporting a problem."),
  })
  .describe('An RFC 9457 problem.');
export type ProblemBody = z.infer<typeof ProblemBody>;

export class Problem extends Error {
  override name = 'Problem';
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors: ParamError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toJSON(): ProblemBody {
    return {
      type: problemType(this.code),
      title: TITLES[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      errors: this.errors,
    };
  }
}

export const invalidParameters = (errors: ParamError[]) =>
  new Problem(400, 'invalid_parameter', errors.map((e) => `${e.param}: ${e.message}`).join('; '), errors);
export const notFound = (detail: string) => new Problem(404, 'not_found', detail);
export const dataUnavailable = (detail: string) =>
  new Problem(503, 'data_unavailable', detail, [], { 'retry-after': '5' });
