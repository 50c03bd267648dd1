/**
 * The 200 examples of the OpenAPI document: real answers of the service on simulator data, captured
 * by `npm run openapi:examples` (src/tools/openapi-examples.ts) into openapi-examples.json, keyed by
 * operationId (`operationId:media/type` for a second media type of the same answer).
 */
import { fileURLToPath } from 'node:url';
import examples from '../generated/openapi-examples.json' with { type: 'json' };

export type OpenApiExamples = Record<string, unknown>;

export const EXAMPLES_FILE = fileURLToPath(new URL('../generated/openapi-examples.json', import.meta.url));

/** The captured example of `operationId`'s 200 in `mediaType` (JSON unless given), if any. */
export function exampleOf(operationId: string, mediaType = 'application/json'): unknown {
  const all = examples as OpenApiExamples;
  return mediaType === 'application/json' ? all[operationId] : all[`${operationId}:${mediaType}`];
}
