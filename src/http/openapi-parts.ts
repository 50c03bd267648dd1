/**
 * The pieces of the OpenAPI document (openapi.ts) that operations share: response headers, problem
 * answers, request parameters, and `operation`, which makes a GET operation from its description.
 * Each route declares its own operation with these, beside its handler (route.ts).
 */
import type { z } from 'zod';
import { exampleOf } from './openapi-examples.js';
import { parameterSchema, ref, type ComponentName, type JsonSchema } from './openapi-schemas.js';
import { AdvertiserIdParam, JurisdictionParam } from './params.js';
import { dataUnavailable, invalidParameters, Problem } from '../model/problem.js';
import { unknownEvent } from '../serve/snapshot-lookup.js';
import { rateLimited } from '../limits/rate-limits.js';

export type Obj = Record<string, unknown>;

/** A response header; `required`: every answer that lists it carries it (test/support/contract.ts checks). */
const header = (description: string, schema: JsonSchema = { type: 'string' }, required = true) => ({
  description,
  required,
  schema,
});

export const HEADERS = {
  ETag: header('Entity tag of the body: send it back as If-None-Match to get a 304 while it is unchanged.'),
  'Last-Modified': header('When the data behind the body last changed.'),
  'Cache-Control': header('How long and by whom the answer may be cached.'),
  Vary: header('Request headers the body depends on (always Accept-Encoding for cached bodies).'),
  'Content-Encoding': header(
    '`br` or `gzip` when the body is compressed (chosen by Accept-Encoding); absent for the plain body.',
    { type: 'string', enum: ['br', 'gzip'] },
    false,
  ),
  'X-Request-Id': header(
    "The caller's X-Request-Id when it is 1-128 characters of A-Za-z0-9._:-, else one the server made.",
    {
      type: 'string',
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
    },
  ),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'string', pattern: '^\\d+$' }),
  RateLimit: header(
    'IETF RateLimit header: requests left under the limit (`r`) and seconds until its window resets (`t`): `"advertiser";r=598;t=41`. Sent on every answer to an accepted advertiser key and on every 429 (then: the limit that refused the request). Public answers carry none: shared caches may store them and hand them to other callers, and their one limit (`variant_build`) is charged after the reply.',
    { type: 'string' },
    false,
  ),
  'RateLimit-Policy': header(
    'IETF RateLimit-Policy header: the limit\'s quota (`q`) and window in seconds (`w`): `"advertiser";q=600;w=60`. Sent with RateLimit, on the same answers.',
    { type: 'string' },
    false,
  ),
  'Access-Control-Allow-Origin': header('`*`: any web page may read the answer (it carries no credentials).', {
    type: 'string',
    const: '*',
  }),
  'WWW-Authenticate': header(
    'The challenge: `ApiKey realm="predictwire", header="x-api-key"` for an advertiser key, `PostbackSignature realm="predictwire", param="sig"` for a postback.',
  ),
  Allow: header('The methods the path answers: `GET, HEAD, OPTIONS`.'),
  Upgrade: header('The protocol the path takes: `websocket`.', { type: 'string', enum: ['websocket'] }),
  Location: header("Where the redirect goes: the operator's page.", { type: 'string', format: 'uri' }),
} as const;
type HeaderName = keyof typeof HEADERS;
export const headers = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Problem answers, reused by `$ref`: status → what it means here and the headers it carries. */
export const PROBLEMS: Record<number, [string, HeaderName[]]> = {
  400: ['`invalid_parameter`: a parameter or header is missing or malformed; `errors` lists each.', []],
  401: [
    '`missing_credentials` or `invalid_credentials` (advertiser key); `invalid_signature` (postback).',
    ['WWW-Authenticate'],
  ],
  403: ['`invalid_link`: the link is unsigned, altered, or names an operator no longer listed.', []],
  404: [
    "`not_found`: no such route, event, league matchup or team; `unknown_click`: a postback for a click that is not the operator's.",
    [],
  ],
  405: ['`method_not_allowed`: the API is read-only (a postback is GET only).', ['Allow']],
  410: [
    '`link_expired`: a signed link past its expiry; `click_expired`: a postback for a click past its attribution window.',
    [],
  ],
  426: ['`upgrade_required`: the path takes only WebSocket upgrades.', ['Upgrade']],
  429: [
    '`rate_limited`: over an allowance; retry after Retry-After.',
    ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
  ],
  500: ['`internal_error`: a bug, logged with the request id.', []],
  503: [
    '`data_unavailable`: no data loaded yet, or credentials cannot be checked now; retry after Retry-After.',
    ['Retry-After'],
  ],
};

/** An example body per problem status, made by the code that answers it. */
const PROBLEM_EXAMPLES: Record<number, Problem> = {
  400: invalidParameters([{ param: 'limit', message: 'must be an integer from 1 to 50' }]),
  401: new Problem(401, 'invalid_credentials', 'The advertiser id and API key do not match an active key.'),
  403: new Problem(403, 'invalid_link', 'This link is not a valid signed predictwire link.'),
  404: unknownEvent('fed-march-2031'),
  405: new Problem(405, 'method_not_allowed', 'POST is not supported; this API is read-only.'),
  410: new Problem(410, 'link_expired', 'This link has expired; reload the widget for a fresh one.'),
  426: new Problem(
    426,
    'upgrade_required',
    'GET /v1/ws takes only WebSocket upgrades: connect with a WebSocket client (ws:// or wss://).',
  ),
  429: rateLimited('advertiser', { points: 600, seconds: 60 }, 41_000),
  500: new Problem(500, 'internal_error', 'The server failed to answer this request.'),
  503: dataUnavailable('No EUR reference rate has been loaded yet; try again shortly or ask for USD.'),
};

/** Every problem carries CORS (a page must be able to read why it failed); a 4xx the limit headers when an advertiser's allowance or a limit applies. */
const problemHeaders = (status: number): HeaderName[] => [
  ...new Set<HeaderName>([
    'X-Request-Id',
    'Access-Control-Allow-Origin',
    ...(status < 500 ? (['RateLimit', 'RateLimit-Policy'] as const) : []),
    ...PROBLEMS[status]![1],
  ]),
];

export const problemResponse = (status: number) => ({
  description: PROBLEMS[status]![0],
  headers: headers(...problemHeaders(status)),
  content: {
    'application/problem+json': {
      schema: ref('Problem'),
      example: { ...PROBLEM_EXAMPLES[status]!.toJSON(), request_id: 'widget-42' },
    },
  },
});

/** Every route may answer these: a body on GET (400), another method (405), a bug (500). */
const COMMON_PROBLEMS = [400, 405, 500];

export const problemRefs = (statuses: number[]) =>
  Object.fromEntries(
    [...new Set([...COMMON_PROBLEMS, ...statuses])]
      .sort()
      .map((s) => [String(s), { $ref: `#/components/responses/Problem${s}` }]),
  );

/** Query (or path) parameters from a zod object's fields, minus `omit`. */
export function queryParams(schema: z.ZodObject, omit: string[] = []): Obj[] {
  return Object.entries(schema.shape)
    .filter(([name]) => !omit.includes(name))
    .map(([name, field]) => {
      const json = parameterSchema(field as z.ZodType);
      const { description, ...rest } = json;
      return {
        name,
        in: 'query',
        required: !(field as z.ZodType).safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
}

export const param = (
  name: string,
  where: 'header' | 'query' | 'path',
  description: string,
  schema: JsonSchema = { type: 'string' },
  required = false,
) => ({
  name,
  in: where,
  required,
  description,
  schema,
});

/** A query parameter's schema without its description (the parameter carries its own). */
const bare = (schema: z.ZodType): JsonSchema => {
  const { description: _, ...rest } = parameterSchema(schema);
  return rest;
};

/**
 * A request header's value: printable characters, bounded. No value this API reads needs more; a
 * longer one is not refused (uWS bounds the whole header block), just never useful.
 */
export const HEADER_VALUE = { type: 'string', pattern: '^[\\x20-\\x7e]*$', maxLength: 256 };
const IF_NONE_MATCH = param(
  'If-None-Match',
  'header',
  'An ETag from an earlier answer: 304 without a body while it still matches.',
  HEADER_VALUE,
);
const ACCEPT_ENCODING = param(
  'Accept-Encoding',
  'header',
  'br or gzip: the body compressed (br preferred); absent or neither: the plain body.',
  HEADER_VALUE,
);
export const REQUEST_ID = param(
  'X-Request-Id',
  'header',
  'Your id for this request, echoed and logged (1-128 characters of A-Za-z0-9._:-; anything else is replaced by one the server makes).',
  {
    type: 'string',
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
    maxLength: 128,
  },
);
export const ACCEPT_LANGUAGE = param(
  'Accept-Language',
  'header',
  "Language of promo texts and labels: en, es, de, fr or pt (else the country's, else English).",
  HEADER_VALUE,
);
export const ADVERTISER_HEADER = param(
  'x-advertiser-id',
  'header',
  'Attributes clicks to a registered advertiser; grants nothing.',
  bare(AdvertiserIdParam),
);

export interface Op {
  summary: string;
  /** What the operation does beyond its summary: what a caller relies on. */
  description: string;
  /** The 200 body: a component, or a schema of its own. */
  payload?: ComponentName | JsonSchema;
  params?: Obj[];
  problems?: number[];
  /** Answers carry ETag and a 304 is possible. */
  cached?: boolean;
  advertiser?: boolean;
  /** Whether its 200 carries `Access-Control-Allow-Origin: *`; by default public operations do, advertiser ones not. */
  cors?: boolean;
  tag: string;
  /** The 200 body's media type; application/json unless given (a script or page: its own). */
  contentType?: string;
  /** Responses beyond the shared ones. */
  responses?: Obj;
  /** Other media types the 200 may come in (chosen by Accept or a parameter), with their schema. */
  alsoAs?: Record<string, JsonSchema>;
}

/** The security requirement of public operations: none, said explicitly (an empty requirement: anyone may call). */
export const PUBLIC: Obj[] = [{}];
export const ADVERTISER_KEY: Obj[] = [{ advertiserId: [], apiKey: [] }];

/** The captured answer of `id` as the media type's `example`, when there is one (scripts and pages have none). */
export function withExample(id: string, mediaType = 'application/json'): Obj {
  const example = exampleOf(id, mediaType);
  return example === undefined ? {} : { example };
}

export function operation(id: string, op: Op): Obj {
  // Every answer to an advertiser says what is left of its allowance.
  const usage = op.advertiser ? (['RateLimit', 'RateLimit-Policy'] as const) : [];
  const cors = (op.cors ?? !op.advertiser) ? (['Access-Control-Allow-Origin'] as const) : [];
  const ok: Obj = {
    description: 'OK',
    headers: headers(
      'X-Request-Id',
      'Cache-Control',
      ...cors,
      ...(op.cached ? (['ETag', 'Last-Modified', 'Vary', 'Content-Encoding'] as const) : []),
      ...usage,
    ),
    ...(op.payload
      ? {
          content: {
            [op.contentType ?? 'application/json']: {
              schema: typeof op.payload === 'string' ? ref(op.payload) : op.payload,
              ...withExample(id, op.contentType),
            },
            ...Object.fromEntries(
              Object.entries(op.alsoAs ?? {}).map(([type, schema]) => [type, { schema, ...withExample(id, type) }]),
            ),
          },
        }
      : {}),
  };
  return {
    get: {
      operationId: id,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      parameters: [...(op.params ?? []), ...(op.cached ? [IF_NONE_MATCH, ACCEPT_ENCODING] : []), REQUEST_ID],
      security: op.advertiser ? ADVERTISER_KEY : PUBLIC,
      responses: {
        '200': ok,
        ...(op.cached
          ? {
              '304': {
                description: 'Not modified: the If-None-Match tag still matches.',
                headers: headers('X-Request-Id', 'ETag', 'Cache-Control', 'Vary', ...cors, ...usage),
              },
            }
          : {}),
        ...problemRefs([...(op.problems ?? []), ...(op.advertiser ? [401, 429, 503] : [])]),
        ...op.responses,
      },
    },
  };
}

/** Query parameters of signed links (click and impression URLs): strings of known form, each bounded. */
export const SIGNED = {
  operatorId: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,39}$', maxLength: 40 },
  signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', maxLength: 43 },
  expiry: { type: 'string', pattern: '^\\d{1,12}$', maxLength: 12 },
  jurisdiction: bare(JurisdictionParam),
  advertiser: bare(AdvertiserIdParam),
} as const;
