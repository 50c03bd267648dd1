/**
 * WebSocket subscriptions on uWS topics. A client subscribes to `live-market:{ASSET}:{h}` or
 * `event:{slug}`, gets the current payload at once and then every push. uWS fans pushes out in
 * native code; a client that reads too slowly passes the backpressure limit and is closed without
 * slowing anyone else; idle connections are pinged and dropped when dead.
 */
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { Logger } from '../log.js';
import { dataFrame, errorFrame, parseClientMessage } from './protocol.js';

/** Resolves a topic to its current payload; undefined for a topic that does not exist. */
export type TopicLookup = (topic: string) => Buffer | undefined;

export interface WsOptions {
  /** Bytes buffered for one client before it is dropped. */
  maxBackpressure: number;
  maxSubscriptions: number;
  /** Seconds of silence before a ping; a client that does not answer is closed. */
  idleTimeoutSec: number;
}

export const DEFAULT_WS_OPTIONS: WsOptions = { maxBackpressure: 256 * 1024, maxSubscriptions: 32, idleTimeoutSec: 32 };

interface Client {
  topics: Set<string>;
}

export interface WsHub {
  /** Pushes a payload to a topic's subscribers (a no-op with none). */
  push(topic: string, body: Buffer): void;
  hasSubscribers(topic: string): boolean;
  /** Open connections, for readiness output. */
  connections(): number;
  /** Closes every connection with 1001 (going away), for shutdown. */
  closeAll(): void;
}

/** Registers /v1/ws on `app`. */
export function registerWebSocket(app: TemplatedApp, lookup: TopicLookup, log: Logger, opts: WsOptions = DEFAULT_WS_OPTIONS): WsHub {
  const open = new Set<WebSocket<Client>>();
  app.ws<Client>('/v1/ws', {
    maxPayloadLength: 4 * 1024,
    idleTimeout: opts.idleTimeoutSec,
    sendPingsAutomatically: true,
    maxBackpressure: opts.maxBackpressure,
    closeOnBackpressureLimit: true,
    upgrade: (res, req, context) => {
      res.upgrade<Client>(
        { topics: new Set() },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      open.add(ws);
    },
    // Also runs when uWS drops a client past the backpressure limit.
    close: (ws) => {
      open.delete(ws);
    },
    message: (ws: WebSocket<Client>, message: ArrayBuffer, isBinary: boolean) => {
      const msg = isBinary ? 'binary frames are not supported' : parseClientMessage(Buffer.from(message).toString('utf8'));
      if (typeof msg === 'string') return void ws.send(errorFrame('bad_request', msg));
      const client = ws.getUserData();
      if (msg.op === 'unsubscribe') {
        ws.unsubscribe(msg.topic);
        client.topics.delete(msg.topic);
        return void ws.send(JSON.stringify({ op: 'unsubscribed', topic: msg.topic }));
      }
      if (!client.topics.has(msg.topic) && client.topics.size >= opts.maxSubscriptions) {
        return void ws.send(errorFrame('too_many_subscriptions', `at most ${opts.maxSubscriptions} topics per connection`));
      }
      let body: Buffer | undefined;
      try {
        body = lookup(msg.topic);
      } catch (err) {
        log.warn({ err: (err as Error).message, topic: msg.topic }, 'topic lookup failed');
      }
      if (!body) return void ws.send(errorFrame('unknown_topic', `no topic "${msg.topic}"; try live-market:BTC:5 or event:{slug}`));
      client.topics.add(msg.topic);
      ws.subscribe(msg.topic);
      ws.send(dataFrame(msg.topic, body));
    },
  });

  return {
    push(topic, body) {
      if (app.numSubscribers(topic) > 0) app.publish(topic, dataFrame(topic, body), false);
    },
    hasSubscribers: (topic) => app.numSubscribers(topic) > 0,
    connections: () => open.size,
    closeAll() {
      for (const ws of [...open]) ws.end(1001, 'server shutting down');
    },
  };
}
