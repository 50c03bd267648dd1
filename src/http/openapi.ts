/**
 * The OpenAPI 3.1 document served at /v1/openapi.json (docs/contract.md): every route's operation,
 * as the route declares it beside its handler (api-routes.ts), with the pieces they share
 * (openapi-parts.ts): problems and WebSocket frames as components, the payloads from the zod
 * schemas (openapi-schemas.ts). Built once per process.
 */
import type { Config } from '../config.js';
import { PROBLEM_DOCS } from '../model/problem.js';
import { ROUTES } from './api-routes.js';
import { HEADERS, type Obj, PROBLEMS, problemResponse } from './openapi-parts.js';
import { componentSchemas } from './openapi-schemas.js';

/** The document for a process with `config`: its public base URL is the server, production or local. */
export function buildOpenApi(config: Pick<Config, 'publicBaseUrl' | 'production'>, version: string): Obj {
  const paths = Object.fromEntries(Object.values(ROUTES).map((r) => [r.path, r.openapi()]));
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
