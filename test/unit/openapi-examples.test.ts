/**
 * The 200 examples of the OpenAPI document (src/generated/openapi-examples.json, written by `npm
 * run openapi:examples` from a service on simulator data): one for every operation whose 200 has a
 * JSON or CSV body, each accepted by that operation's schema, and the file holds exactly what the
 * script asks for, at the path of the operation it is shown on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleRequests } from '../../src/tools/openapi-examples.js';
import { EXAMPLES_FILE } from '../../src/http/openapi-examples.js';
import { CatalogPayload } from '../../src/widgets/payload-schemas.js';
import { contractViolation, openApiDocument } from '../support/contract.js';

type Obj = Record<string, any>;
const doc = openApiDocument();
const file = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Obj;
const EXAMPLE_TYPES = ['application/json', 'text/csv'];

/** [operationId, path, media type, content] of every 200 body that takes an example. */
const bodies = Object.entries(doc.paths as Obj).flatMap(([path, item]) => {
  const op = item.get as Obj;
  const content = (op.responses['200']?.content ?? {}) as Obj;
  return Object.entries(content)
    .filter(([type]) => EXAMPLE_TYPES.includes(type) && op.operationId !== 'getOpenApi') // the document is its own example
    .map(([type, media]) => [op.operationId as string, path, type, media as Obj] as const);
});

describe('the OpenAPI examples', () => {
  it('give every JSON and CSV 200 an example that its schema accepts', () => {
    expect(bodies.length).toBeGreaterThan(12);
    for (const [id, path, type, media] of bodies) {
      expect(media.example, `${id} ${type}`).toBeDefined();
      const body = typeof media.example === 'string' ? media.example : JSON.stringify(media.example);
      expect(contractViolation('GET', `http://localhost:8080${path}`, 200, type, body), id).toBeUndefined();
    }
    const csv = bodies.find(([, , type]) => type === 'text/csv')![3].example as string;
    expect(csv.split('\n')[0]).toMatch(/^period_start,/);
  });

  it('are exactly what the script captures, each from the path of its operation', () => {
    const requests = exampleRequests(CatalogPayload.parse(file.getCatalog));
    expect(Object.keys(file).sort()).toEqual(Object.keys(requests).sort());
    expect(bodies.map(([id, , type]) => (type === 'application/json' ? id : `${id}:${type}`)).sort()).toEqual(
      Object.keys(requests).sort(),
    );
    for (const [id, r] of Object.entries(requests)) {
      const path = Object.entries(doc.paths as Obj).find(([, item]) => item.get.operationId === id.split(':')[0])![0];
      const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      expect(new URL(r.path, 'http://x').pathname, id).toMatch(pattern);
      expect(r.advertiser === true, id).toBe(path.startsWith('/advertiser/'));
    }
  });
});
