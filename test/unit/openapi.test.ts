import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { Problem, PROBLEM_CODES } from '../../src/model/problem.js';
import { CURRENCIES, DISPLAY_FORMATS, LEAGUES } from '../../src/model/index.js';
import { contractViolation, openApiDocument } from '../support/contract.js';

const doc = openApiDocument();
type Obj = Record<string, any>;
const param = (path: string, name: string): Obj =>
  (doc.paths[path].get.parameters as Obj[]).find((p) => p.name === name)!;

/** Where in the document a schema property lacks a description (a `$ref` counts when its component has one). */
function undescribed(schema: unknown, at: string, out: string[] = []): string[] {
  if (!schema || typeof schema !== 'object') return out;
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) undescribed(s, `${at}[${i}]`, out);
    return out;
  }
  const s = schema as Obj;
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Obj)) {
    const target = typeof prop.$ref === 'string' ? doc.components.schemas[prop.$ref.split('/').pop()] : undefined;
    if (!prop.description && !target?.description) out.push(`${at}.${name}`);
    undescribed(prop, `${at}.${name}`, out);
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'prefixItems', 'additionalProperties'])
    undescribed(s[key], `${at}/${key}`, out);
  return out;
}

describe('the OpenAPI document', () => {
  it('holds answers to their documented headers: those always sent must be there, and each must match its schema', () => {
    const url = 'http://localhost:8080/v1/widgets/event/history?slug=fed-december-2026';
    const body = JSON.stringify(
      doc.paths['/v1/widgets/event/history'].get.responses['200'].content['application/json'].example,
    );
    const sent = { 'x-request-id': 'r-1', 'cache-control': 'private, max-age=60', 'access-control-allow-origin': '*' };
    const check = (headers: Record<string, string>) =>
      contractViolation('GET', url, 200, 'application/json', body, new Headers(headers));
    expect(check(sent)).toBeUndefined();
    const { 'access-control-allow-origin': _, ...withoutCors } = sent;
    expect(check(withoutCors)).toMatch(/header Access-Control-Allow-Origin is documented as always sent, and missing/);
    expect(check({ ...sent, 'access-control-allow-origin': 'https://elsewhere.example' })).toMatch(
      /header Access-Control-Allow-Origin: .* does not match/,
    );
    expect(check({ ...sent, 'x-request-id': 'not an id' })).toMatch(/header X-Request-Id/);
  });

  it('gives every problem answer an example body of its status that the Problem schema accepts', () => {
    for (const [name, response] of Object.entries(doc.components.responses as Obj)) {
      const example = response.content['application/problem+json'].example as Obj;
      expect(`Problem${example.status}`).toBe(name);
      expect(
        contractViolation(
          'GET',
          'http://localhost:8080/no-such-route',
          example.status,
          'application/problem+json',
          JSON.stringify(example),
        ),
      ).toBeUndefined();
    }
  });

  it('describes every schema property, every parameter and every header', () => {
    const properties = Object.entries(doc.components.schemas as Obj).flatMap(([name, schema]) =>
      undescribed(schema, name),
    );
    expect(properties).toEqual([]);
    const operations = Object.entries(doc.paths as Obj).map(([path, item]) => [path, item.get as Obj] as const);
    const parameters = operations.flatMap(([path, op]) =>
      (op.parameters as Obj[]).filter((p) => !p.description).map((p) => `${path} ${p.name}`),
    );
    expect(parameters).toEqual([]);
    expect(Object.entries(doc.components.headers as Obj).filter(([, h]) => !h.description)).toEqual([]);
    // The walk sees what it should: hundreds of properties, nested ones included.
    expect(JSON.stringify(doc.components.schemas).match(/"description"/g)!.length).toBeGreaterThan(200);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('publishes the parameters with the constraints the routes enforce', () => {
    expect(param('/v1/widgets/broad', 'limit').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      format: 'int32',
    });
    expect(param('/v1/widgets/broad', 'currency').schema.enum).toEqual(Object.keys(CURRENCIES));
    expect(param('/v1/widgets/sportsbook', 'league')).toMatchObject({ required: true, schema: { enum: [...LEAGUES] } });
    expect(param('/v1/widgets/event', 'display_format').schema).toMatchObject({
      enum: [...DISPLAY_FORMATS],
      default: 'cents',
    });
    expect(param('/v1/widgets/event', 'slug')).toMatchObject({
      required: true,
      schema: { maxLength: 120, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
    });
    expect(param('/v1/widgets/live-market', 'horizon_minutes').schema.enum).toEqual(['5', '15']);
    expect(param('/advertiser/v1/widgets/specific/{event_slug}', 'limit').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      format: 'int32',
    });
    expect(param('/v1/widgets/event', 'fallback_geo').schema.pattern).toBe('^[A-Z]{2}(-[A-Z0-9]{1,3})?$');
    // geo is the advertiser's (server-to-server) parameter; public routes take the caller's address.
    expect(param('/v1/widgets/event', 'geo')).toBeUndefined();
    expect(param('/advertiser/v1/widgets/event', 'geo')).toBeDefined();
  });

  it('marks advertiser endpoints with the key scheme, postbacks with the signature scheme, and public ones (the console page too) as open to anyone', () => {
    for (const [path, item] of Object.entries(doc.paths as Obj)) {
      // Public: one empty requirement, which OpenAPI reads as "no credentials needed".
      const expected =
        path === '/v1/postback'
          ? [{ postbackSignature: [] }]
          : path.startsWith('/advertiser/v1/')
            ? [{ advertiserId: [], apiKey: [] }]
            : [{}];
      expect(item.get.security, path).toEqual(expected);
      expect(item.get.responses['401'] !== undefined, path).toBe(Object.keys(expected[0]!).length > 0);
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['advertiserId', 'apiKey', 'postbackSignature']);
  });

  it('names a section of docs/problems.md in every problem type it allows', () => {
    const docs = readFileSync(resolve(import.meta.dirname, '../../docs/problems.md'), 'utf8');
    const anchors = [...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    const types: string[] = doc.components.schemas.Problem.properties.type.enum;
    expect(types.map((t) => new URL(t).hash.slice(1)).sort()).toEqual(anchors.sort());
    expect(types).toEqual(PROBLEM_CODES.map((c) => new Problem(400, c, 'x').toJSON().type));
  });

  it('describes the WebSocket messages both ways', () => {
    expect(doc.paths['/v1/ws'].get['x-websocket']).toEqual({
      client: { $ref: '#/components/schemas/WsClientMessage' },
      server: { $ref: '#/components/schemas/WsServerFrame' },
    });
    expect(doc.components.schemas.WsClientMessage.properties.op.enum).toEqual(['subscribe', 'unsubscribe']);
    expect(doc.components.schemas.WsServerFrame.anyOf).toHaveLength(4);
  });
});

describe('contractViolation', () => {
  const problem = JSON.stringify({ ...new Problem(404, 'not_found', 'No route /nope.').toJSON(), request_id: 'r1' });

  it('accepts an answer the document describes', () => {
    expect(contractViolation('GET', 'http://x/nope', 404, 'application/problem+json', problem)).toBeUndefined();
    expect(
      contractViolation('GET', 'http://x/healthz', 200, 'application/json; charset=utf-8', '{"status":"ok"}'),
    ).toBeUndefined();
    expect(contractViolation('GET', 'http://x/v1/widgets/event/', 304, null, '')).toBeUndefined();
    expect(
      contractViolation('GET', 'http://x/advertiser/v1/widgets/specific/a-b', 404, 'application/problem+json', problem),
    ).toBeUndefined();
  });

  it('refuses a body, status or content type the document does not describe', () => {
    expect(contractViolation('GET', 'http://x/healthz', 200, 'application/json', '{"status":"fine"}')).toMatch(
      /does not match/,
    );
    expect(
      contractViolation(
        'GET',
        'http://x/v1/widgets/event',
        200,
        'application/json',
        '{"widget_class":"event-specific"}',
      ),
    ).toMatch(/required property/);
    expect(contractViolation('GET', 'http://x/healthz', 418, 'application/json', '{}')).toMatch(
      /status not documented/,
    );
    expect(contractViolation('GET', 'http://x/v1/catalog', 200, 'text/html', '<p>')).toMatch(/content type/);
    expect(contractViolation('GET', 'http://x/v1/secret', 200, 'application/json', '{}')).toMatch(/no such operation/);
    expect(contractViolation('GET', 'http://x/v1/secret.js', 200, 'text/javascript', 'x')).toMatch(/no such operation/);
    expect(contractViolation('GET', 'http://x/nope', 404, 'application/problem+json', '{"code":"teapot"}')).toMatch(
      /does not match/,
    );
  });
});
