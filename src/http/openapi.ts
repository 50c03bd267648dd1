/**
 * The OpenAPI 3.1 document served at /v1/openapi.json (docs/contract.md): every route of the
 * router, its parameters from the zod query schemas the routes parse with, its responses from the
 * zod payload schemas, problems and WebSocket frames as components. Built once per process.
 */
import type { z } from 'zod';
import type { Config } from '../config.js';
import { exampleOf } from './openapi-examples.js';
import { FIELDS } from '../tracking/click-links.js';
import { DEFAULT_WS_OPTIONS } from '../transport/ws-server.js';
import { componentSchemas, parameterSchema, ref, type ComponentName, type JsonSchema } from './openapi-schemas.js';
import {
  AdvertiserIdParam,
  EventWidgetQuery,
  JurisdictionParam,
  SlugPath,
  SpecificEventQuery,
  SportsbookWidgetQuery,
  WsQuery,
} from './params.js';
import { dataUnavailable, invalidParameters, Problem, PROBLEM_DOCS } from '../model/problem.js';
import { unknownEvent } from '../serve/snapshot-lookup.js';
import { rateLimited } from '../limits/rate-limits.js';
import { BroadWidgetQuery } from './routes/broad.js';
import { ReportQuery } from './routes/reports.js';
import { PostbackQuery } from './routes/postback.js';
import { EventHistoryQuery } from './routes/event-history.js';
import { LiveMarketQuery } from './routes/live-market.js';
import { ComplianceQuery } from './routes/compliance.js';

type Obj = Record<string, unknown>;

/** A response header; `required`: every answer that lists it carries it (test/support/contract.ts checks). */
const header = (description: string, schema: JsonSchema = { type: 'string' }, required = true) => ({
  description,
  required,
  schema,
});

const HEADERS = {
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
const headers = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Problem answers, reused by `$ref`: status → what it means here and the headers it carries. */
const PROBLEMS: Record<number, [string, HeaderName[]]> = {
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

const problemResponse = (status: number) => ({
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

const problemRefs = (statuses: number[]) =>
  Object.fromEntries(
    [...new Set([...COMMON_PROBLEMS, ...statuses])]
      .sort()
      .map((s) => [String(s), { $ref: `#/components/responses/Problem${s}` }]),
  );

/** Query (or path) parameters from a zod object's fields, minus `omit`. */
function queryParams(schema: z.ZodObject, omit: string[] = []): Obj[] {
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

const param = (
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
const HEADER_VALUE = { type: 'string', pattern: '^[\\x20-\\x7e]*$', maxLength: 256 };
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
const REQUEST_ID = param(
  'X-Request-Id',
  'header',
  'Your id for this request, echoed and logged (1-128 characters of A-Za-z0-9._:-; anything else is replaced by one the server makes).',
  {
    type: 'string',
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
    maxLength: 128,
  },
);
const ACCEPT_LANGUAGE = param(
  'Accept-Language',
  'header',
  "Language of promo texts and labels: en, es, de, fr or pt (else the country's, else English).",
  HEADER_VALUE,
);
const ADVERTISER_HEADER = param(
  'x-advertiser-id',
  'header',
  'Attributes clicks to a registered advertiser; grants nothing.',
  bare(AdvertiserIdParam),
);

interface Op {
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
const PUBLIC: Obj[] = [{}];
const ADVERTISER_KEY: Obj[] = [{ advertiserId: [], apiKey: [] }];

/** The captured answer of `id` as the media type's `example`, when there is one (scripts and pages have none). */
function withExample(id: string, mediaType = 'application/json'): Obj {
  const example = exampleOf(id, mediaType);
  return example === undefined ? {} : { example };
}

function operation(id: string, op: Op): Obj {
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

/** The four widgets, each public and under /advertiser. */
const WIDGETS = [
  {
    name: 'broad',
    id: 'BroadWidget',
    query: BroadWidgetQuery,
    payload: 'BroadWidgetPayload',
    summary: "Broad widget: operators allowed in the visitor's country, ranked",
    description:
      "Every operator that may be shown in the viewer's jurisdiction, ranked by activity and click-through, with its promotion, disclosures and signed links; an empty list where none may be shown.",
    problems: [429, 503],
    language: true,
  },
  {
    name: 'event',
    id: 'EventWidget',
    query: EventWidgetQuery,
    payload: 'EventWidgetPayload',
    summary: "Event widget: one event, every operator's price per outcome",
    description:
      "Each outcome of one event with the price of every operator shown in the viewer's jurisdiction, after fees, and the best one flagged.",
    problems: [404, 429, 503],
  },
  {
    name: 'sportsbook',
    id: 'SportsbookWidget',
    query: SportsbookWidgetQuery,
    payload: 'SportsbookWidgetPayload',
    summary: "Sportsbook widget: the next matchup of a league with every operator's lines",
    description:
      "The next game of a league (or of one team) with the moneyline, spread and total of every sportsbook shown in the viewer's jurisdiction, in the viewer's odds format, the best line flagged.",
    problems: [404, 429, 503],
  },
  {
    name: 'live-market',
    id: 'LiveMarketWidget',
    query: LiveMarketQuery,
    payload: 'LiveMarketPayload',
    summary: 'Live market: short up/down contracts on a crypto asset',
    description:
      "The current clock-aligned window of an asset: its strike, the spot price and its path, and each venue's up/down prices; `market_status` stale, without prices, while the price feed is silent.",
    problems: [429],
  },
] as const;

/** Query parameters of signed links: strings of known form, each bounded. */
const OPERATOR_ID = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,39}$', maxLength: 40 };
const SIGNATURE = { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', maxLength: 43 };
const EXPIRY = { type: 'string', pattern: '^\\d{1,12}$', maxLength: 12 };
const JURISDICTION = bare(JurisdictionParam);
const ADVERTISER = bare(AdvertiserIdParam);
const CLICK_FIELDS: Record<(typeof FIELDS)[number][0], JsonSchema> = {
  o: OPERATOR_ID,
  w: { type: 'string', enum: ['broad', 'sportsbook', 'live-market', 'event-specific'] },
  p: { type: 'string', pattern: '^[^\\x00-\\x1f]+$', maxLength: 200 },
  d: { type: 'string', format: 'uri', maxLength: 2048 },
  c: JURISDICTION,
  a: ADVERTISER,
  i: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', maxLength: 64 },
  e: EXPIRY,
};

/** The document for a process with `config`: its public base URL is the server, production or local. */
export function buildOpenApi(config: Pick<Config, 'publicBaseUrl' | 'production'>, version: string): Obj {
  const paths: Obj = {};
  for (const w of WIDGETS) {
    const language = 'language' in w ? [ACCEPT_LANGUAGE] : [];
    paths[`/v1/widgets/${w.name}`] = operation(`get${w.id}`, {
      tag: 'widgets',
      summary: w.summary,
      description: `${w.description} Public: the jurisdiction comes from a trusted CDN's geo headers or the client address (\`fallback_geo\` when neither places it).`,
      payload: w.payload,
      params: [...queryParams(w.query, ['geo']), ADVERTISER_HEADER, ...language],
      problems: [...w.problems],
      cached: true,
    });
    paths[`/advertiser/v1/widgets/${w.name}`] = operation(`getAdvertiser${w.id}`, {
      tag: 'advertiser',
      summary: `${w.summary} (advertiser key; \`geo\` names the viewer's jurisdiction, ZZ without it)`,
      description: `${w.description} For an advertiser's servers: the viewer's jurisdiction is \`geo\`, links credit the advertiser, and every answer says what is left of its allowance.`,
      payload: w.payload,
      params: [...queryParams(w.query, ['advertiser_id']), ...language],
      problems: [...w.problems],
      cached: true,
      advertiser: true,
    });
  }
  paths['/v1/widgets/event/history'] = operation('getEventHistory', {
    tag: 'widgets',
    summary: "Event history: each outcome's aggregated probability and operator prices over 1, 7 or 30 days",
    description:
      "Recorded by the worker at each events refresh: 5-minute points for a day, hourly points for 30 days. Only operators allowed in the viewer's jurisdiction appear.",
    payload: 'EventHistoryPayload',
    params: queryParams(EventHistoryQuery),
    // Under /v1/widgets/: an address building too many new variants is refused (variant_build).
    problems: [404, 429, 503],
  });
  paths['/advertiser/v1/widgets/events'] = operation('getAdvertiserEventList', {
    tag: 'advertiser',
    summary: 'Slugs of the events not yet closed',
    description: 'The slugs to ask the operator comparison for: every event of the catalog not yet closed.',
    payload: 'EventListPayload',
    cached: true,
    advertiser: true,
  });
  paths['/advertiser/v1/widgets/specific/{event_slug}'] = operation('getAdvertiserSpecificEvent', {
    tag: 'advertiser',
    summary: 'One event compared between operator A and operator B',
    description:
      "Each outcome of one event priced by two operators side by side, with whether each may be shown in the viewer's jurisdiction (`geo`).",
    payload: 'SpecificEventPayload',
    params: [
      param('event_slug', 'path', 'An event slug from the event list.', parameterSchema(SlugPath), true),
      ...queryParams(SpecificEventQuery),
    ],
    problems: [404],
    cached: true,
    advertiser: true,
  });
  paths['/advertiser/v1/reports'] = operation('getAdvertiserReport', {
    tag: 'advertiser',
    summary: 'Your clicks, impressions, click-through rate and conversions per hour or day, as JSON or CSV',
    description:
      'The counts the ranking uses: a click once per visitor, operator and UTC day; bots, HTTP libraries and prefetches left out. Conversions are what operators reported for your clicks by postback (`/v1/postback`), filed under the period they arrived in; amounts in `currency` at the latest daily reference rates. Days are kept 90 days, hours 7. `Accept: text/csv` or `format=csv` for CSV (columns: period_start, the group_by columns, impressions, clicks, ctr, registrations, first_deposits, deposits, conversion_rate, deposit_amount, earnings, earnings_per_click).',
    payload: 'ReportPayload',
    alsoAs: { 'text/csv': ref('ReportCsv') },
    params: [
      ...queryParams(ReportQuery),
      param('Accept', 'header', 'text/csv for CSV; anything else: JSON (format= overrides it).', HEADER_VALUE),
    ],
    problems: [],
    advertiser: true,
  });
  paths['/v1/catalog'] = operation('getCatalog', {
    tag: 'discovery',
    summary: 'What can be embedded: events, league matchups, live markets (no key)',
    description:
      'The same for every caller: not filtered by country or advertiser (each widget request is). Publicly cacheable.',
    payload: 'CatalogPayload',
    problems: [503],
    cached: true,
  });
  paths['/v1/compliance'] = operation('getCompliance', {
    tag: 'compliance',
    summary:
      'Who is shown where and why: every operator by jurisdiction and surface, the rows with their sources and review dates, active suspensions',
    description:
      'What this process applies now (a suspension shows here within seconds). `Cache-Control: no-cache`: revalidate with If-None-Match. The same as a page at /compliance (docs/compliance.md).',
    payload: 'CompliancePayload',
    params: queryParams(ComplianceQuery),
    cached: true,
  });
  paths['/compliance'] = operation('getCompliancePage', {
    tag: 'compliance',
    summary: 'The compliance matrix as a page a compliance officer reads (no script)',
    description:
      'The same as /v1/compliance, for people: light and dark, readable on a phone, under a Content-Security-Policy that allows nothing but its own style.',
    payload: 'Page',
    contentType: 'text/html',
    params: queryParams(ComplianceQuery),
    cached: true,
  });
  paths['/v1/openapi.json'] = operation('getOpenApi', {
    tag: 'discovery',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of this API as this process serves it: built at start, the same until it restarts.',
    payload: 'OpenApiDocument',
    cached: true,
  });
  // Fixed pages and scripts: [path, operationId, summary, description, media type, body schema, problems].
  const files: Array<[string, string, string, string, string, ComponentName, number[]]> = [
    [
      '/v1/embed.js',
      'getEmbedScript',
      'The <predictwire-widget> custom element (docs/embed.md)',
      'The script a page loads once to embed any number of widgets; under 15 KB gzipped.',
      'application/javascript',
      'Script',
      [],
    ],
    [
      '/docs',
      'getReference',
      'This document as pages people read (Redoc, served by the service itself)',
      'A page rendering /v1/openapi.json; it loads nothing from other hosts.',
      'text/html',
      'Page',
      [],
    ],
    [
      '/docs/redoc.standalone.js',
      'getReferenceRenderer',
      "The renderer /docs loads (the npm package redoc's standalone bundle)",
      'Served from this service, so the reference needs no third-party host.',
      'application/javascript',
      'Script',
      [],
    ],
    [
      '/demo',
      'getDemoPage',
      'A page showing every widget kind, light and dark, each with its embed snippet (404 while DEMO_ENABLED is off)',
      'For trying the embed; off in production unless DEMO_ENABLED is set.',
      'text/html',
      'Page',
      [404],
    ],
  ];
  for (const [path, id, summary, description, contentType, body, problems] of files) {
    paths[path] = operation(id, {
      tag: 'discovery',
      summary,
      description,
      payload: body,
      contentType,
      cached: true,
      problems,
    });
  }
  paths['/advertiser/console'] = operation('getAdvertiserConsole', {
    tag: 'advertiser',
    summary: 'The advertiser console: your report as charts and tables, for a range of days (a page for people)',
    description:
      "A fixed page (no key needed to load it): the advertiser signs in on it with its id and key, which stay in the tab's sessionStorage and go only to /advertiser/v1/reports, in headers. Served with a strict Content-Security-Policy (its one script and stylesheet by hash).",
    payload: 'Page',
    contentType: 'text/html',
    cached: true,
  });
  paths['/v1/click'] = {
    get: {
      operationId: 'followClick',
      tags: ['widgets'],
      summary: 'A signed affiliate link: counts the click, redirects to the operator',
      description:
        'Links are minted in widget payloads (`deep_link`, `web_url`, `cta_url`); follow them unchanged, never build one. An address over the click limit is still redirected; its clicks are not counted.',
      parameters: [
        ...FIELDS.map(([short, long]) => param(short, 'query', `Signed field: ${long}.`, CLICK_FIELDS[short])),
        param('s', 'query', 'HMAC-SHA256 signature of the other fields.', SIGNATURE, true),
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
  };
  paths['/v1/impression'] = {
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
        param('c', 'query', "Signed field: the viewer's jurisdiction the widget was built for.", JURISDICTION),
        param('a', 'query', 'Signed field: the advertiser the links are attributed to.', ADVERTISER),
        param('e', 'query', 'Signed field: expiry (Unix seconds).', EXPIRY, true),
        param('s', 'query', 'HMAC-SHA256 signature of the other fields.', SIGNATURE, true),
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
  };
  paths['/v1/postback'] = {
    get: {
      operationId: 'receivePostback',
      tags: ['operators'],
      summary: 'An operator reports what a click became: a registration, a first deposit or a deposit',
      description:
        "Server to server, signed with the operator's postback secret (docs/postbacks.md): `sig`, the last parameter, is the hex HMAC-SHA256 of the query string before `&sig=`, exactly as sent. Counted once per `event_id`: a postback sent again is answered `duplicate` and changes nothing. Attributed to the advertiser, widget class, placement and jurisdiction of the click `click_id` names. While storage is unreachable a checked postback is queued (202) and counted within seconds of its return. GET only: HEAD and every other method are 405. An address sending too many bad signatures is refused 429 for a while.",
      parameters: [...queryParams(PostbackQuery), REQUEST_ID],
      security: [{ postbackSignature: [] }],
      responses: {
        '200': {
          description: 'Taken: `counted` (new) or `duplicate` (this event id was counted before; nothing changed).',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'application/json': { schema: ref('PostbackReceipt'), ...withExample('receivePostback') } },
        },
        '202': {
          description:
            'Queued while storage is unreachable: counted within seconds of its return (not at all if the click turns out unknown).',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'application/json': { schema: ref('PostbackReceipt') } },
        },
        ...problemRefs([401, 404, 410, 429, 503]),
      },
    },
  };
  // Health checks are for load balancers and monitors: no CORS.
  paths['/healthz'] = operation('getHealth', {
    tag: 'operations',
    summary: 'The process is alive',
    description: 'Answers whenever the process runs; it calls nothing, so it answers while Redis is away.',
    payload: 'Health',
    cors: false,
  });
  paths['/readyz'] = operation('getReadiness', {
    tag: 'operations',
    summary: 'This instance can serve: ready, degraded (Redis unreachable or stale data, still 200) or not',
    description:
      "For load balancers: 503 only while a needed snapshot is not loaded or the process drains. Limited per client address in this instance's memory, except for TRUST_PROXY addresses asking for themselves.",
    payload: 'Readiness',
    problems: [429],
    cors: false,
    responses: {
      '503': {
        description: 'Not ready (Readiness with status not_ready), or draining before shutdown.',
        headers: headers('X-Request-Id', 'Cache-Control'),
        content: { 'application/json': { schema: { oneOf: [ref('Readiness'), ref('Draining')] } } },
      },
    },
  });
  paths['/v1/ws'] = {
    get: {
      operationId: 'openWebSocket',
      tags: ['widgets'],
      summary: 'WebSocket upgrade: live widget payloads pushed on every change',
      description: `JSON text frames. Send \`WsClientMessage\` to subscribe to \`live-market:{ASSET}:{5|15}\` or \`event:{slug}\` (\`event:{slug}:{display_format}\` for \`implied_pct\` or \`decimal\`); the server sends a \`WsServerFrame\` at once and on every change. At most ${DEFAULT_WS_OPTIONS.maxSubscriptions} topics per connection. The \`x-websocket\` extension names both message schemas.`,
      parameters: queryParams(WsQuery),
      security: PUBLIC,
      'x-websocket': { client: ref('WsClientMessage'), server: ref('WsServerFrame') },
      responses: {
        '101': { description: 'Switching protocols: the connection is a WebSocket from here on.' },
        ...problemRefs([426, 429, 503]),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'predictwire',
      version,
      summary: 'Read-only data for embeddable prediction-market and sportsbook comparison widgets.',
      description: `Field forms and rules: docs/contract.md. Every error is a problem (RFC 9457) whose \`type\` is a section of ${PROBLEM_DOCS}.`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // The one server is this process's public origin (PUBLIC_BASE_URL, https in production).
    servers: [
      {
        url: config.publicBaseUrl,
        description: config.production
          ? "Production: this deployment's public origin."
          : 'Local development: this process, not for the public.',
        'x-internal': false,
      },
    ],
    tags: [
      { name: 'widgets', description: 'Public widget payloads, the click redirect and the WebSocket.' },
      {
        name: 'advertiser',
        description:
          'The same with an advertiser key, plus the event list, operator comparison, reports and the console.',
      },
      {
        name: 'operators',
        description: 'What operators send us: conversion postbacks, signed with their postback secret.',
      },
      { name: 'discovery', description: 'What can be embedded, and this contract.' },
      { name: 'compliance', description: 'Who is shown where, why, and on what sources.' },
      { name: 'operations', description: 'Liveness and readiness.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: Object.fromEntries(Object.keys(PROBLEMS).map((s) => [`Problem${s}`, problemResponse(Number(s))])),
      securitySchemes: {
        advertiserId: { type: 'apiKey', in: 'header', name: 'x-advertiser-id', description: 'Your advertiser id.' },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Your API key (issued with the advertiser CLI).',
        },
        postbackSignature: {
          type: 'apiKey',
          in: 'query',
          name: 'sig',
          description:
            "Hex HMAC-SHA256, under the operator's postback secret (issued with the postback CLI), of the query string before `&sig=`; `sig` is the last parameter.",
        },
      },
    },
  };
}
