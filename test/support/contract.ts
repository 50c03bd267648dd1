/**
 * Checks HTTP answers of the service against its OpenAPI document, so the document cannot drift
 * from the code: the operation is looked up by method and path, the status must be one it
 * documents, and a JSON body must validate (ajv, JSON Schema 2020-12) against the schema given for
 * that status and content type; every header documented as always sent must be there, and every
 * documented header present must match its schema; an advertiser's 200 or 304 must carry its usage headers.
 * `installContractCheck()` (vitest setup) applies it to every fetch
 * whose answer comes from the API (it carries X-Request-Id, which only the API process sets).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../src/http/openapi.js';
import { CONTRACT_VERSION } from '../../src/http/routes/openapi.js';

type Obj = Record<string, any>;

interface Contract {
  doc: Obj;
  ajv: Ajv2020;
  routes: Array<{ pattern: RegExp; item: Obj }>;
  validators: Map<string, ValidateFunction>;
}

let contract: Contract | undefined;

/** The document as a process with this base URL serves it. */
export function openApiDocument(publicBaseUrl = 'http://localhost:8080', production = false): Obj {
  return buildOpenApi({ publicBaseUrl, production }, CONTRACT_VERSION);
}

function load(): Contract {
  if (contract) return contract;
  const doc = openApiDocument();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // The component schemas as one schema's $defs, so their $refs resolve inside ajv.
  const defs = JSON.parse(
    JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', 'contract#/$defs/'),
  );
  ajv.addSchema({ $id: 'contract', $defs: defs });
  const routes = Object.entries(doc.paths as Obj).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    item: item as Obj,
  }));
  return (contract = { doc, ajv, routes, validators: new Map() });
}

function validator(c: Contract, schema: Obj): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = c.validators.get(key);
  if (!v) {
    const rewritten = JSON.parse(key.replaceAll('#/components/schemas/', 'contract#/$defs/'));
    c.validators.set(key, (v = c.ajv.compile(rewritten)));
  }
  return v;
}

/** Follows a `#/components/...` reference inside the document. */
function deref(doc: Obj, node: Obj): Obj {
  if (typeof node.$ref !== 'string') return node;
  return (node.$ref as string)
    .slice(2)
    .split('/')
    .reduce((at: Obj, key: string) => at[key], doc);
}

/**
 * What is wrong with an answer of the API to `method url` (undefined when it matches the document).
 * `body` is the answer's text.
 */
export function contractViolation(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: string,
  headers?: Headers,
): string | undefined {
  const c = load();
  const where = `${method} ${url} → ${status}`;
  if (method === 'OPTIONS') return undefined; // CORS preflight: no operation, no body
  let path = new URL(url).pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const type = (contentType ?? '').split(';')[0]!.trim();
  const op = c.routes.find((r) => r.pattern.test(path))?.item[method === 'HEAD' ? 'get' : method.toLowerCase()] as
    | Obj
    | undefined;
  let schema: Obj | undefined;
  if (op) {
    const response = op.responses[String(status)] as Obj | undefined;
    if (!response) return `${where}: status not documented for this operation`;
    const wrongHeader = headers && headerViolation(c, deref(c.doc, response), headers);
    if (wrongHeader) return `${where}: ${wrongHeader}`;
    const content = deref(c.doc, response).content as Obj | undefined;
    if (!content)
      return body === '' || method === 'HEAD' ? undefined : `${where}: a body where the document gives none`;
    schema = content[type]?.schema;
    if (!schema) return `${where}: content type "${type}" not documented (${Object.keys(content).join(', ')})`;
  } else if (type === 'application/problem+json') {
    schema = { $ref: '#/components/schemas/Problem' }; // unknown routes and methods still answer problems
  } else {
    return `${where}: no such operation in the document`;
  }
  if (method === 'HEAD' || status === 304) return undefined;
  if (!/[/+]json$/.test(type)) return undefined; // a script or page: documented, not a JSON body to validate
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${where}: body is not JSON`;
  }
  const validate = validator(c, schema);
  if (validate(parsed)) return undefined;
  return `${where}: body does not match the document: ${c.ajv.errorsText(validate.errors)}`;
}

/** A documented header that is required and missing, or present with a value its schema refuses. */
function headerViolation(c: Contract, response: Obj, headers: Headers): string | undefined {
  for (const [name, declared] of Object.entries((response.headers ?? {}) as Obj)) {
    const h = deref(c.doc, declared as Obj);
    const value = headers.get(name);
    if (value === null) {
      if (h.required) return `header ${name} is documented as always sent, and missing`;
      continue;
    }
    const validate = validator(c, h.schema as Obj);
    if (!validate(value))
      return `header ${name}: "${value}" does not match the document: ${c.ajv.errorsText(validate.errors)}`;
  }
  return undefined;
}

/** What is wrong with a WebSocket frame (parsed JSON) the server sent, by the document's WsServerFrame. */
export function frameViolation(frame: unknown): string | undefined {
  const c = load();
  const validate = validator(c, { $ref: '#/components/schemas/WsServerFrame' });
  return validate(frame)
    ? undefined
    : `WebSocket frame does not match WsServerFrame: ${c.ajv.errorsText(validate.errors)}`;
}

/**
 * What is missing from an advertiser's answer (undefined when nothing is): every 200 and 304 of an
 * authenticated route says what is left of the allowance, with the limit's policy.
 */
export function usageViolation(method: string, url: string, status: number, headers: Headers): string | undefined {
  if (
    method === 'OPTIONS' ||
    (status !== 200 && status !== 304) ||
    !new URL(url).pathname.startsWith('/advertiser/v1/')
  )
    return undefined;
  const policy = headers.get('ratelimit-policy');
  const left = headers.get('ratelimit');
  if (!policy || !/^"advertiser";q=\d+;w=\d+$/.test(policy))
    return `${method} ${url} → ${status}: RateLimit-Policy is ${policy}`;
  if (!left || !/^"advertiser";r=\d+;t=\d+$/.test(left)) return `${method} ${url} → ${status}: RateLimit is ${left}`;
  return undefined;
}

/**
 * Wraps the global fetch: every answer from the API is checked against the document, and a
 * mismatch fails the request (and so the test) with the reason.
 */
export function installContractCheck(): void {
  const original = globalThis.fetch;
  if ((original as { contractChecked?: boolean }).contractChecked) return;
  const checked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await original(input, init);
    if (!res.headers.has('x-request-id')) return res;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = input instanceof Request ? input.url : String(input);
    const problem =
      contractViolation(
        method,
        url,
        res.status,
        res.headers.get('content-type'),
        await res.clone().text(),
        res.headers,
      ) ?? usageViolation(method, url, res.status, res.headers);
    if (problem) throw new Error(`contract violation: ${problem}`);
    return res;
  };
  globalThis.fetch = Object.assign(checked, { contractChecked: true }) as typeof fetch;
}
