/** The public WebSocket protocol at /v1/ws (docs/contract.md): JSON text frames. */
import { z } from 'zod';

export const ClientMessage = z.object({
  op: z.enum(['subscribe', 'unsubscribe']),
  topic: z.string().min(1).max(200),
});
export type ClientMessage = z.infer<typeof ClientMessage>;

export type ErrorCode = 'bad_request' | 'unknown_topic' | 'too_many_subscriptions';

export const errorFrame = (code: ErrorCode, message: string) => JSON.stringify({ op: 'error', code, message });

/** `{"topic":...,"data":<payload>}` built from the payload's bytes, so nothing is serialized twice. */
export function dataFrame(topic: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`{"topic":${JSON.stringify(topic)},"data":`), body, Buffer.from('}')]);
}

/** Parses one client frame; a reason string when it is not a valid message. */
export function parseClientMessage(text: string): ClientMessage | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'message is not JSON';
  }
  const parsed = ClientMessage.safeParse(raw);
  if (parsed.success) return parsed.data;
  return 'expected {"op":"subscribe"|"unsubscribe","topic":"..."}';
}
