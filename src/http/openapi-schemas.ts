/**
 * JSON Schema forms of the zod schemas the service validates with, for the OpenAPI document: the
 * component schemas (payloads, problems, WebSocket frames) and each query parameter's schema.
 * Nothing here restates a shape: every JSON schema is generated from the zod one the code uses
 * (scripts, pages, CSV and the document itself, which no zod schema describes, are named below).
 */
import { z } from 'zod';
import { ProblemBody } from '../model/problem.js';
import { DrainingBody, HealthBody, PostbackReceipt, ReadyBody } from './operation-bodies.js';
import {
  BroadWidgetPayload,
  CatalogPayload,
  EventListPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../widgets/payload-schemas.js';
import { CompliancePayload } from '../catalog/compliance/matrix.js';
import { ReportPayload } from '../tracking/advertiser-report.js';
import { EventHistoryPayload } from '../widgets/event-history.js';
import { ClientMessage, dataFrameSchema, ErrorFrame, UnsubscribedFrame } from '../transport/ws/protocol.js';

export type JsonSchema = Record<string, unknown>;

const WsLiveMarketFrame = dataFrameSchema(LiveMarketPayload).describe('`live-market:{ASSET}:{5|15}` topics');
const WsEventFrame = dataFrameSchema(EventWidgetPayload).describe('`event:{slug}` topics');

/** Every component schema by its name in `#/components/schemas`. */
const COMPONENTS = {
  BroadWidgetPayload,
  EventWidgetPayload,
  SportsbookWidgetPayload,
  LiveMarketPayload,
  EventListPayload,
  SpecificEventPayload,
  CatalogPayload,
  ReportPayload,
  PostbackReceipt,
  EventHistoryPayload,
  CompliancePayload,
  Problem: ProblemBody,
  Health: HealthBody,
  Readiness: ReadyBody,
  Draining: DrainingBody,
  WsClientMessage: ClientMessage,
  WsLiveMarketFrame,
  WsEventFrame,
  WsErrorFrame: ErrorFrame,
  WsUnsubscribedFrame: UnsubscribedFrame,
  WsServerFrame: z.union([WsLiveMarketFrame, WsEventFrame, ErrorFrame, UnsubscribedFrame]),
} as const;

/** Bodies that are not JSON the service builds (scripts, pages, CSV) and this document itself: no zod schema to derive them from. */
const OTHER_BODIES = {
  Script: { type: 'string', description: 'JavaScript source.' },
  Page: { type: 'string', description: 'An HTML page.' },
  ReportCsv: { type: 'string', description: 'The report as CSV: a header row, then one row per period and group.' },
  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', const: '3.1.0', description: 'The OpenAPI version.' },
      info: { type: 'object', description: 'Title, version and description of the API.' },
      paths: { type: 'object', description: 'Every operation, by path.' },
    },
    description: 'An OpenAPI 3.1 document.',
  },
} satisfies Record<string, JsonSchema>;

export type ComponentName = keyof typeof COMPONENTS | keyof typeof OTHER_BODIES;

/** `$ref` to a component schema. */
export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/** The component schemas, referring to each other by `$ref`. */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  return {
    ...Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, withIntegerFormats(strip(s as JsonSchema))])),
    ...OTHER_BODIES,
  };
}

const INT32 = 2 ** 31;

/**
 * Gives every integer schema its `format`: int32 when its bounds fit, else int64 (zod's integers
 * are bounded to JavaScript's safe integers, which int64 holds). Clients generating code pick their
 * integer type from it.
 */
function withIntegerFormats<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withIntegerFormats) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withIntegerFormats(v)])) as JsonSchema;
  if (out.type === 'integer' && out.format === undefined) {
    const fits =
      typeof out.minimum === 'number' &&
      typeof out.maximum === 'number' &&
      out.minimum >= -INT32 &&
      out.maximum < INT32;
    out.format = fits ? 'int32' : 'int64';
  }
  return out as T;
}

/** Drops the standalone-document keys a schema embedded in OpenAPI must not carry. */
function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/**
 * A query parameter's schema as the client writes it (io: input). A text parsed into a number
 * (`intParam`) is published as that number with its bounds, the constraint a client must meet.
 */
export function parameterSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def;
      if (def.type !== 'pipe' || def.out._zod.def.type !== 'number') return;
      const { description } = ctx.jsonSchema as JsonSchema;
      for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
      Object.assign(
        ctx.jsonSchema,
        strip(z.toJSONSchema(def.out, { target: 'draft-2020-12' }) as JsonSchema),
        description ? { description } : {},
      );
    },
  });
  return withIntegerFormats(strip(json as JsonSchema));
}
