/** The public WebSocket protocol at /v1/ws (docs/contract.md): JSON text frames. */
import { z } from 'zod';

export const ClientMessage = z
  .object({
    op: z.enum(['subscribe', 'unsubscribe']).describe('What to do with the topic.'),
    topic: z
      .string()
      .min(1)
      .max(200)
      // The form of a topic, for the published schema; a topic of another form is answered with an `unknown_topic` error frame.
      .meta({ pattern: '^(live-market:[A-Z]+:[0-9]+|event:[a-z0-9-]+(:[a-z_]+)?)$' })
      .describe('live-market:{ASSET}:{5|15}, event:{slug} or event:{slug}:{display_format}.'),
  })
  .describe('A client frame.');
export type ClientMessage = z.infer<typeof ClientMessage>;

export const ERROR_CODES = ['bad_request', 'unknown_topic', 'too_many_subscriptions'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What the server answers to a frame it cannot act on. */
export const ErrorFrame = z
  .object({
    op: z.literal('error').describe('Always error.'),
    code: z.enum(ERROR_CODES).describe('Stable machine code.'),
    message: z.string().describe('What went wrong, for a person.'),
  })
  .describe('A frame the server could not act on.');

export const errorFrame = (code: ErrorCode, message: string) =>
  JSON.stringify({ op: 'error', code, message } satisfies z.input<typeof ErrorFrame>);

/** The answer to an unsubscribe: no more frames of `topic` follow. */
export const UnsubscribedFrame = z
  .object({
    op: z.literal('unsubscribed').describe('Always unsubscribed.'),
    topic: z.string().describe('The topic left.'),
  })
  .describe('No more frames of the topic follow.');
export const unsubscribedFrame = (topic: string) =>
  JSON.stringify({ op: 'unsubscribed', topic } satisfies z.input<typeof UnsubscribedFrame>);

/**
 * A topic's payload, sent on subscribe and on every change; `data` is the REST body of the topic's
 * widget (`payload`: the live-market or event widget schema).
 */
export const dataFrameSchema = <T extends z.ZodType>(payload: T) =>
  z.object({ topic: z.string().describe('The topic subscribed to.'), data: payload });

/** The last frame built from each payload (bodies are cached and replaced whole when data changes). */
const frames = new WeakMap<Buffer, { topic: string; frame: Buffer }>();

/**
 * `{"topic":...,"data":<payload>}` built from the payload's bytes, so nothing is serialized twice,
 * and once per payload and topic: thousands subscribing to a topic get the same bytes, and a
 * connection costs no buffer of its own (short-lived buffers of that size grow the process's
 * resident memory by their sum in a burst of subscribers).
 */
export function dataFrame(topic: string, body: Buffer): Buffer {
  const cached = frames.get(body);
  if (cached?.topic === topic) return cached.frame;
  const frame = Buffer.concat([Buffer.from(`{"topic":${JSON.stringify(topic)},"data":`), body, Buffer.from('}')]);
  frames.set(body, { topic, frame });
  return frame;
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
