/**
 * JSON Schema forms of the zod schemas the service validates with, for the OpenAPI document: the
 * component schemas (payloads, problems, WebSocket frames) and each query parameter's schema.
 * Nothing here restates a shape: every schema is generated from the zod one the code uses.
 */
import { z } from 'zod';
import { ProblemBody } from '../problem.js';
import { DrainingBody, HealthBody, ReadyBody } from './routes/health.js';
import {
  BroadWidgetPayload,
  CatalogPayload,
  EventListPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../widgets/payload-schemas.js';
import { ReportPayload } from '../tracking/advertiser-report.js';
import { EventHistoryPayload } from '../widgets/event-history.js';
import { ClientMessage, dataFrameSchema, ErrorFrame, UnsubscribedFrame } from '../ws/protocol.js';

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
  EventHistoryPayload,
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

export type ComponentName = keyof typeof COMPONENTS;

/** `$ref` to a component schema. */
export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/** The component schemas, referring to each other by `$ref`. */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, strip(s as JsonSchema)]));
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
  return strip(
    z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      override: (ctx) => {
        const def = ctx.zodSchema._zod.def;
        if (def.type !== 'pipe' || def.out._zod.def.type !== 'number') return;
        const { description } = ctx.jsonSchema as JsonSchema;
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
        Object.assign(ctx.jsonSchema, strip(z.toJSONSchema(def.out, { target: 'draft-2020-12' }) as JsonSchema), description ? { description } : {});
      },
    }) as JsonSchema,
  );
}
