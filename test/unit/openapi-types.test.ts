/**
 * The TypeScript types generated from the OpenAPI document (src/generated/openapi-types.ts) match the
 * document this code builds: a change to a schema, parameter or route without `npm run
 * openapi:types` fails here. The payloads the service builds are assignable to the generated types
 * (checked by tsc).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiTypes, TYPES_FILE } from '../../src/tools/openapi-types.js';
import type { components, paths } from '../../src/generated/openapi-types.js';
import type { ReportPayload } from '../../src/tracking/advertiser-report.js';
import type {
  BroadWidgetPayload,
  EventWidgetPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';

type Schemas = components['schemas'];

// Compile-time: what the builders return is what a generated client expects.
// biome-ignore lint/suspicious/noExportsInTest: exported so that tsc checks it and does not call it unused
export type Assignable = [
  BroadWidgetPayload extends Schemas['BroadWidgetPayload'] ? true : never,
  EventWidgetPayload extends Schemas['EventWidgetPayload'] ? true : never,
  SportsbookWidgetPayload extends Schemas['SportsbookWidgetPayload'] ? true : never,
  ReportPayload extends Schemas['ReportPayload'] ? true : never,
];
const assignable: Assignable = [true, true, true, true];

describe('generated OpenAPI types', () => {
  it('are what openapi-typescript makes of the current document (run `npm run openapi:types` after a change)', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await openApiTypes());
    expect(assignable).toEqual([true, true, true, true]);
  });

  it('name every route of the document', async () => {
    const text = readFileSync(TYPES_FILE, 'utf8');
    const routes: Array<keyof paths> = ['/advertiser/v1/reports', '/v1/widgets/broad', '/docs'];
    for (const route of routes) expect(text).toContain(`"${route}": {`);
  });
});
